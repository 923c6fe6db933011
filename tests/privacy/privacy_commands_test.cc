// `tiergate pii scan|eval` and `tiergate audit verify`, run as the real
// binary on small files written here (text of our own, no dataset rows).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_command.h"
#include "tiergate/privacy/audit.h"
#include "test_models.h"

namespace tiergate {
namespace {

using nlohmann::json;

class PiiCommandsTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return cli_.write(name, text); }
  testing::CommandResult tiergate(std::vector<std::string> args) { return cli_.run(std::move(args)); }
  // `count` labelled rows of our own: names in a few contexts, which a
  // tagger learns.
  static std::string name_rows(int count) {
    const char* first[] = {"Anna", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro"};
    const char* last[] = {"Novak", "Ferreira", "Okafor", "Brandt", "Moreau", "Takeda"};
    const char* before[] = {"Please call ", "I met ", "Send it to ", "Thanks, "};
    std::string rows;
    for (int i = 0; i < count; ++i) {
      const std::string b = before[i % 4], name = std::string(first[i % 8]) + " " + last[(i / 8) % 6];
      rows += json{{"text", b + name + " today."},
                   {"spans", {{{"type", "PERSON"}, {"start", b.size()}, {"end", b.size() + name.size()}}}}}
                  .dump() +
              "\n";
    }
    return rows;
  }
  testing::CommandSandbox cli_{TIERGATE_BIN, "tiergate-pii-cli"};
  const std::string& dir_ = cli_.dir();
};

// Offsets are code points, as the labelled data counts them: the e-mail
// after "é" starts one earlier than its byte offset.
TEST_F(PiiCommandsTest, ScanWritesOneLineOfSpansPerInputLineInCodePoints) {
  const std::string data = write("in.jsonl",
                                 "{\"text\": \"café: write to ana@example.org\"}\n"
                                 "{\"text\": \"nothing here\"}\n"
                                 "{\"text\": \"card 4111-1111-1111-1111, ssn 078-05-1120\", \"spans\": []}\n"
                                 "{\"text\": \"my DOB is 03/14/1985\"}\n");
  const auto r = tiergate({"pii", "scan", "--data", data, "--out", dir_ + "/spans.jsonl", "--no-tagger"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir_ + "/spans.jsonl");
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 4u);
  // The dataset's name for a date of birth: DATE_TIME.
  EXPECT_EQ(lines[3]["spans"], json::parse(R"([{"type": "DATE_TIME", "start": 10, "end": 20}])"));
  EXPECT_EQ(lines[0]["spans"], json::parse(R"([{"type": "EMAIL_ADDRESS", "start": 15, "end": 30}])"));
  EXPECT_EQ(lines[1]["spans"], json::array());
  ASSERT_EQ(lines[2]["spans"].size(), 2u);
  EXPECT_EQ(lines[2]["spans"][0]["type"], "CREDIT_CARD");
  EXPECT_EQ(lines[2]["spans"][1]["type"], "US_SSN");
  EXPECT_EQ(json::parse(r.err)["spans"], 4);
}

TEST_F(PiiCommandsTest, EvalPrintsPrecisionRecallAndF2PerType) {
  // One email found, one labelled person missed, one phone found that is not labelled.
  const std::string data = write("gold.jsonl",
                                 "{\"text\": \"mail bo@example.com now\", \"spans\": [{\"type\": \"EMAIL_ADDRESS\", "
                                 "\"start\": 5, \"end\": 19}]}\n"
                                 "{\"text\": \"ask Bo Lund at (555) 123-4567\", \"spans\": [{\"type\": \"PERSON\", "
                                 "\"start\": 4, \"end\": 11}]}\n");
  const auto r = tiergate({"pii", "eval", "--data", data, "--no-tagger"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["types"]["EMAIL_ADDRESS"]["recall"], 1.0);
  EXPECT_EQ(report["types"]["EMAIL_ADDRESS"]["precision"], 1.0);
  EXPECT_EQ(report["types"]["PERSON"]["recall"], 0.0);
  EXPECT_EQ(report["types"]["PHONE_NUMBER"]["precision"], 0.0);
  EXPECT_EQ(report["overall"]["gold"], 2);
  EXPECT_EQ(report["overall"]["predicted"], 2);
  EXPECT_EQ(report["overall"]["matched"], 1);
  EXPECT_DOUBLE_EQ(report["overall"]["f2"].get<double>(), 0.5);
}

TEST_F(PiiCommandsTest, BadInputNamesTheFileAndLine) {
  const std::string bad = write("bad.jsonl", "{\"text\": \"fine\"}\n{\"prompt\": \"no text\"}\n");
  const auto r = tiergate({"pii", "eval", "--data", bad, "--no-tagger"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.jsonl:2:"), std::string::npos) << r.err;
  const auto missing = tiergate({"pii", "scan", "--data", dir_ + "/absent.jsonl", "--out", dir_ + "/o.jsonl"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("absent.jsonl"), std::string::npos) << missing.err;
  const std::string ok = write("ok.jsonl", "{\"text\": \"x\"}\n");
  const auto unwritable = tiergate({"pii", "scan", "--data", ok, "--out", dir_ + "/no/such/dir/o.jsonl", "--no-tagger"});
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("cannot write"), std::string::npos) << unwritable.err;
}

TEST_F(PiiCommandsTest, TrainWritesATaggerThatScanAndEvalUse) {
  const std::string data = write("names.jsonl", name_rows(160));
  const std::string tagger = dir_ + "/tagger.bin";
  const auto trained = tiergate({"pii", "train", "--data", data, "--out", tagger, "--epochs", "3", "--buckets", "4096"});
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  EXPECT_EQ(json::parse(trained.err.substr(trained.err.find('{')))["types"], json::array({"PERSON"}));
  EXPECT_FALSE(std::filesystem::exists(tagger + ".tmp"));

  const auto eval = tiergate({"pii", "eval", "--data", data, "--tagger", tagger});
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_GE(json::parse(eval.out)["types"]["PERSON"]["recall"].get<double>(), 0.95);

  const std::string cv_spans = dir_ + "/cv_spans.jsonl";
  const auto cv = tiergate({"pii", "cv", "--data", data, "--folds", "2", "--epochs", "2", "--buckets", "4096",
                            "--spans-out", cv_spans});
  ASSERT_EQ(cv.exit_code, 0) << cv.err;
  const json cv_report = json::parse(cv.out);
  EXPECT_EQ(cv_report["types"]["PERSON"]["gold"], 160);
  // --spans-out: each row's cross-validated detections, one line per row in
  // order, as many spans in all as the report counted.
  std::ifstream spans_in(cv_spans);
  size_t lines = 0, spans = 0;
  for (std::string line; std::getline(spans_in, line); ++lines) spans += json::parse(line)["spans"].size();
  EXPECT_EQ(lines, 160u);
  EXPECT_EQ(spans, cv_report["overall"]["predicted"].get<size_t>());

  // Nothing to learn, and a damaged tagger: clear errors.
  const std::string only_cards = write("cards.jsonl", "{\"text\": \"4111 1111 1111 1111\", \"spans\": "
                                                      "[{\"type\": \"CREDIT_CARD\", \"start\": 0, \"end\": 19}]}\n");
  const auto nothing = tiergate({"pii", "train", "--data", only_cards, "--out", dir_ + "/t2.bin"});
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_NE(nothing.err.find("labels none of the types the tagger learns"), std::string::npos) << nothing.err;
  const std::string damaged = write("damaged.bin", "TGPIITAG\x01");
  const auto refused = tiergate({"pii", "scan", "--data", data, "--out", dir_ + "/o.jsonl", "--tagger", damaged});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("damaged.bin"), std::string::npos) << refused.err;
}

// --lower-case-held-out: the folds train on the rows as labelled and are
// scored on their text without capitals, where the capitals that tell these
// names are gone: the same gold, fewer found; each detection --spans-out
// writes lies on a name of its row (the offsets are those of the row).
TEST_F(PiiCommandsTest, CrossValidationCanScoreTheHeldOutRowsWithoutCapitals) {
  const std::string data = write("names.jsonl", name_rows(160));
  auto cv = [&](bool lower_case, const std::string& spans_out) {
    std::vector<std::string> args = {"pii", "cv", "--data", data, "--folds", "2", "--epochs", "2", "--buckets", "4096",
                                     "--spans-out", spans_out};
    if (lower_case) args.push_back("--lower-case-held-out");
    const auto run = tiergate(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return json::parse(run.out)["types"]["PERSON"];
  };
  const json as_labelled = cv(false, dir_ + "/as_labelled.jsonl");
  const json lower_cased = cv(true, dir_ + "/lower_cased.jsonl");
  EXPECT_EQ(lower_cased["gold"], 160);
  EXPECT_EQ(as_labelled["recall"].get<double>(), 1.0);
  EXPECT_LT(lower_cased["recall"].get<double>(), 0.9);
  std::ifstream rows_in(data), spans_in(dir_ + "/lower_cased.jsonl");
  size_t names = 0;
  for (std::string row, spans; std::getline(rows_in, row) && std::getline(spans_in, spans);) {
    const std::string text = json::parse(row)["text"];
    const json found = json::parse(spans);
    for (const json& span : found["spans"]) {
      const auto start = span["start"].get<size_t>(), end = span["end"].get<size_t>();
      const std::string value = text.substr(start, end - start);
      EXPECT_NE(value.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << value;
      ++names;
    }
  }
  EXPECT_EQ(names, lower_cased["predicted"].get<size_t>());
}

// --upper-case-held-out scores the held-out rows in capitals throughout,
// which the tagger reads as text in small letters: the same detections as
// --lower-case-held-out. The two together are refused.
TEST_F(PiiCommandsTest, CrossValidationCanScoreTheHeldOutRowsInCapitals) {
  const std::string data = write("names.jsonl", name_rows(160));
  auto cv = [&](const std::string& flag, const std::string& spans_out) {
    const auto run = tiergate({"pii", "cv", "--data", data, "--folds", "2", "--epochs", "2", "--buckets", "4096",
                               "--spans-out", spans_out, flag});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return json::parse(run.out)["types"]["PERSON"];
  };
  const json lower_cased = cv("--lower-case-held-out", dir_ + "/lower_cased.jsonl");
  const json upper_cased = cv("--upper-case-held-out", dir_ + "/upper_cased.jsonl");
  EXPECT_EQ(upper_cased["gold"], 160);
  EXPECT_EQ(upper_cased, lower_cased);
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(read(dir_ + "/upper_cased.jsonl"), read(dir_ + "/lower_cased.jsonl"));
  const auto both = tiergate({"pii", "cv", "--data", data, "--lower-case-held-out", "--upper-case-held-out"});
  EXPECT_NE(both.exit_code, 0);
  EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;
}

// Without --tagger, `pii scan|eval` run the tagger $TIERGATE_PII_TAGGER
// names (else the one the build trained beside bin/, which this test leaves
// alone) and say which; --no-tagger runs the structured detectors only.
TEST_F(PiiCommandsTest, TheDefaultTaggerComesFromTheEnvironmentAndNoTaggerTurnsItOff) {
  const std::string data = write("names.jsonl", name_rows(160));
  const std::string tagger = dir_ + "/tagger.bin";
  ASSERT_EQ(tiergate({"pii", "train", "--data", data, "--out", tagger, "--epochs", "3", "--buckets", "4096"}).exit_code, 0);

  struct EnvironmentTagger {
    explicit EnvironmentTagger(const std::string& path) { setenv("TIERGATE_PII_TAGGER", path.c_str(), 1); }
    ~EnvironmentTagger() { unsetenv("TIERGATE_PII_TAGGER"); }
  };
  {
    const EnvironmentTagger named(tagger);
    const auto found = tiergate({"pii", "eval", "--data", data});
    ASSERT_EQ(found.exit_code, 0) << found.err;
    EXPECT_GE(json::parse(found.out)["types"]["PERSON"]["recall"].get<double>(), 0.95);
    EXPECT_NE(found.err.find("tagger: " + tagger + " (from TIERGATE_PII_TAGGER"), std::string::npos) << found.err;

    const auto structured_only = tiergate({"pii", "eval", "--data", data, "--no-tagger"});
    ASSERT_EQ(structured_only.exit_code, 0) << structured_only.err;
    EXPECT_EQ(json::parse(structured_only.out)["types"]["PERSON"]["recall"], 0.0);
    EXPECT_EQ(structured_only.err, "");

    const auto both = tiergate({"pii", "scan", "--data", data, "--out", dir_ + "/o.jsonl", "--no-tagger", "--tagger", tagger});
    EXPECT_NE(both.exit_code, 0);
    EXPECT_NE(both.err.find("--tagger excludes --no-tagger"), std::string::npos) << both.err;
  }
  const EnvironmentTagger missing(dir_ + "/nowhere.bin");
  const auto refused = tiergate({"pii", "scan", "--data", data, "--out", dir_ + "/o.jsonl"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("nowhere.bin"), std::string::npos) << refused.err;
}

TEST_F(PiiCommandsTest, TrainReadsGazetteerDirectories) {
  const std::string data = write("names.jsonl", json{{"text", "Please call Anna Novak today."},
                                                     {"spans", {{{"type", "PERSON"}, {"start", 12}, {"end", 22}}}}}
                                                        .dump() +
                                                    "\n");
  std::filesystem::create_directories(dir_ + "/lists");
  write("lists/first_name.txt", "Anna\nBruno\n");
  write("lists/last_name.txt", "Novak\nvan der Berg\n");
  const std::string tagger = dir_ + "/tagger.bin";
  const auto trained = tiergate({"pii", "train", "--data", data, "--out", tagger, "--gazetteers", dir_ + "/lists"});
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  EXPECT_NE(trained.err.find("2 gazetteer categories"), std::string::npos) << trained.err;
  EXPECT_EQ(tiergate({"pii", "eval", "--data", data, "--tagger", tagger}).exit_code, 0);

  std::filesystem::create_directories(dir_ + "/empty");
  const auto empty = tiergate({"pii", "train", "--data", data, "--out", tagger, "--gazetteers", dir_ + "/empty"});
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("no word lists"), std::string::npos) << empty.err;
  const auto missing = tiergate({"pii", "cv", "--data", data, "--gazetteers", dir_ + "/nowhere"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << missing.err;
}

TEST_F(PiiCommandsTest, AuditVerifyChecksTheChain) {
  AuditChain chain;
  EgressRecord r;
  r.upstream = "openai";
  r.action = PrivacyAction::kRedact;
  r.sent_sha256 = sha256_hex("body");
  const std::string a = chain.append(r), b = chain.append(r);
  const std::string good = write("audit.jsonl", a + "\n" + b + "\n");
  const auto ok = tiergate({"audit", "verify", "--log", good});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const json summary = json::parse(ok.out);
  EXPECT_EQ(summary["entries"], 2);
  EXPECT_EQ(summary["chain"], "intact");
  const std::string cut = write("cut.jsonl", b + "\n");
  const auto broken = tiergate({"audit", "verify", "--log", cut});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("cut.jsonl:1: seq 2 where 1 was due"), std::string::npos) << broken.err;
}

}  // namespace
}  // namespace tiergate
