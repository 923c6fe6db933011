// Secrets: provider-prefixed API keys and JWTs, values in key=value forms
// (password=..., "api_key": "..."), PEM private key blocks, and generic
// high-entropy tokens.
#include <cmath>

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

enum class Body : uint8_t {
  kAlnum,        // [A-Za-z0-9]
  kAlnumUnder,   // [A-Za-z0-9_]
  kAlnumDash,    // [A-Za-z0-9-]
  kUrlSafe,      // [A-Za-z0-9_-]
  kDotted,       // [A-Za-z0-9_.-] (SendGrid)
};

struct KeyPrefix {
  std::string_view prefix;  // lower-case; matched in either case
  Body body;
  uint16_t min_body;
  uint16_t max_body;  // exact when equal to min_body
  bool needs_digit;   // the body must hold a digit (rules out prose like "sk-learn-...")
};

// Published token formats (provider documentation and secret-scanning rule
// sets: GitHub, gitleaks).
constexpr KeyPrefix kKeyPrefixes[] = {
    {"sk-", Body::kUrlSafe, 20, 300, true},          // OpenAI, Anthropic (sk-ant-...), DeepSeek
    {"sk_live_", Body::kAlnum, 16, 128, false},      // Stripe secret key
    {"sk_test_", Body::kAlnum, 16, 128, false},
    {"rk_live_", Body::kAlnum, 16, 128, false},      // Stripe restricted key
    {"rk_test_", Body::kAlnum, 16, 128, false},
    {"whsec_", Body::kAlnum, 24, 128, false},        // Stripe webhook secret
    {"ghp_", Body::kAlnum, 30, 255, false},          // GitHub tokens
    {"gho_", Body::kAlnum, 30, 255, false},
    {"ghu_", Body::kAlnum, 30, 255, false},
    {"ghs_", Body::kAlnum, 30, 255, false},
    {"ghr_", Body::kAlnum, 30, 255, false},
    {"github_pat_", Body::kAlnumUnder, 40, 255, false},
    {"glpat-", Body::kUrlSafe, 20, 255, false},      // GitLab
    {"xoxa-", Body::kAlnumDash, 10, 255, true},      // Slack
    {"xoxb-", Body::kAlnumDash, 10, 255, true},
    {"xoxp-", Body::kAlnumDash, 10, 255, true},
    {"xoxr-", Body::kAlnumDash, 10, 255, true},
    {"xoxs-", Body::kAlnumDash, 10, 255, true},
    {"xapp-", Body::kAlnumDash, 10, 255, true},
    {"akia", Body::kAlnum, 16, 16, false},           // AWS access key ids
    {"asia", Body::kAlnum, 16, 16, true},
    {"aiza", Body::kUrlSafe, 35, 35, false},         // Google API key
    {"hf_", Body::kAlnum, 30, 64, false},            // Hugging Face
    {"npm_", Body::kAlnum, 36, 36, false},           // npm
    {"pypi-", Body::kUrlSafe, 50, 300, false},       // PyPI
    {"shpat_", Body::kAlnum, 32, 32, false},         // Shopify
    {"shpss_", Body::kAlnum, 32, 32, false},
    {"sq0atp-", Body::kUrlSafe, 22, 64, false},      // Square
    {"sq0csp-", Body::kUrlSafe, 40, 64, false},
    {"sg.", Body::kDotted, 60, 80, false},           // SendGrid: SG.<22>.<43>
    {"dop_v1_", Body::kAlnum, 64, 64, false},        // DigitalOcean
    {"glc_", Body::kUrlSafe, 32, 255, false},        // Grafana
};

bool body_byte(Body body, unsigned char c) {
  const uint8_t k = kClass[c];
  switch (body) {
    case Body::kAlnum: return k & kAlnum;
    case Body::kAlnumUnder: return k & kWord;
    case Body::kAlnumDash: return (k & kAlnum) || c == '-';
    case Body::kUrlSafe: return (k & kWord) || c == '-';
    case Body::kDotted: return (k & kWord) || c == '-' || c == '.';
  }
  return false;
}

bool base64url_byte(unsigned char c) { return (kClass[c] & kWord) || c == '-'; }

// A JWT: three base64url parts joined by dots, the header starting "eyJ"
// (base64 of '{"'), each part at least 10 bytes. Returns its end, or 0.
size_t match_jwt(const Scan& s, size_t i) {
  size_t pos = i;
  for (int part = 0; part < 3; ++part) {
    size_t e = pos;
    while (e < pos + 8192 && base64url_byte(s.at(e))) ++e;
    if (e - pos < 10) return 0;
    pos = e;
    if (part < 2) {
      if (s.at(pos) != '.') return 0;
      ++pos;
    }
  }
  if (s.at(pos) == '.' || s.word(pos)) return 0;
  return pos;
}

bool is_placeholder(const Scan& s, size_t b, size_t e) {
  const unsigned char c = s.at(b);
  if (c == '$' || c == '<' || c == '{' || c == '%' || c == '[') return true;  // ${VAR}, <password>, {{x}}, %(x)s
  bool masked = true;
  for (size_t k = b; k < e && masked; ++k) {
    const unsigned char m = s.at(k);
    masked = m == '*' || m == 'x' || m == 'X' || m == '.' || m == '-' || m == '#';
  }
  if (masked) return true;
  constexpr std::array<std::string_view, 9> kNonValues = {"null", "none",  "nil",     "true",    "false",
                                                          "undefined", "empty", "required", "optional"};
  for (std::string_view v : kNonValues) {
    if (e - b == v.size() && s.matches(b, v)) return true;
  }
  return false;
}

// An unquoted value that is code, not a literal: a call or index
// ("z.string()", "get_secret(...)"), a comparison ("== x"), or a dotted
// name ("request.body.password", "os.environ").
bool code_expression(const Scan& s, size_t b, size_t e) {
  if (s.at(b) == '=') return true;
  bool dotted_name = s.alpha(b) || s.at(b) == '_';
  bool dot = false;
  for (size_t k = b; k < e; ++k) {
    const unsigned char c = s.at(k);
    if (c == '(' || c == '[') return true;
    if (c == '.') {
      dot = true;
      dotted_name = dotted_name && k + 1 < e && (s.alpha(k + 1) || s.at(k + 1) == '_') && s.word(k - 1);
    } else if (!(kClass[c] & kWord)) {
      dotted_name = false;
    }
  }
  return dot && dotted_name;
}

// Like a credential: a digit and a letter, or 16+ bytes with mixed case.
bool credential_like(const Scan& s, size_t b, size_t e, size_t min_len) {
  if (e - b < min_len) return false;
  bool digit = false, lower = false, upper = false;
  for (size_t k = b; k < e; ++k) {
    const uint8_t c = s.cls(k);
    digit |= (c & kDigit) != 0;
    lower |= (c & kLower) != 0;
    upper |= (c & kUpper) != 0;
  }
  return (digit && (lower || upper)) || (e - b >= 16 && lower && upper);
}

enum class KeyName : uint8_t { kNone, kPassword, kSecret, kWeakSecret };

// What a key=value name (lower-cased suffix of [nb, ne)) announces.
KeyName classify_name(const Scan& s, size_t nb, size_t ne) {
  auto ends_with = [&](std::string_view suffix, bool whole_part) {
    if (ne - nb < suffix.size() || !s.matches(ne - suffix.size(), suffix)) return false;
    if (!whole_part || ne - nb == suffix.size()) return true;
    const unsigned char before = s.at(ne - suffix.size() - 1);
    return before == '_' || before == '-' || before == '.';
  };
  if (ends_with("password", false) || ends_with("passwd", false) || ends_with("passphrase", false) ||
      ends_with("passcode", false) || ends_with("pwd", true) || ends_with("pw", true) || ends_with("pass", true) || ends_with("pin", true)) {
    return KeyName::kPassword;
  }
  if (ends_with("secret", false) || ends_with("token", false) || ends_with("apikey", false) ||
      ends_with("api_key", false) || ends_with("api-key", false) || ends_with("access_key", false) ||
      ends_with("accesskey", false) || ends_with("secret_key", false) || ends_with("secretkey", false) ||
      ends_with("private_key", false) || ends_with("credential", false) || ends_with("credentials", false) ||
      ends_with("authorization", true) || ends_with("auth", true)) {
    return KeyName::kSecret;
  }
  if (ends_with("key", true)) return KeyName::kWeakSecret;
  return KeyName::kNone;
}

}  // namespace

bool secret_context_before(const Scan& s, size_t pos) {
  static constexpr std::array<std::string_view, 9> kWords = {"key*",  "token*",  "secret*",     "api*",  "auth*",
                                                             "bearer", "passw*", "credential*", "sig*"};
  return s.keyword_before(pos, 32, kWords);
}

// First letters (lower-case) of the prefixes above and of JWTs ("eyJ").
constexpr std::array<bool, 256> make_key_starts() {
  std::array<bool, 256> t{};
  for (const KeyPrefix& k : kKeyPrefixes) t[static_cast<unsigned char>(k.prefix[0])] = true;
  t['e'] = true;
  return t;
}
constexpr std::array<bool, 256> kKeyStarts = make_key_starts();

void detect_key_prefix(Scan& s, size_t ws) {
  const unsigned char c = s.lower(ws);
  if (!kKeyStarts[c]) return;
  if (ws > 0 && (s.word(ws - 1) || s.at(ws - 1) == '-' || s.at(ws - 1) == '.')) return;
  if (c == 'e' && s.lower(ws + 1) == 'y' && s.lower(ws + 2) == 'j') {
    if (size_t e = match_jwt(s, ws)) s.add(PiiType::kApiKey, ws, e);
    return;
  }
  for (const KeyPrefix& k : kKeyPrefixes) {
    if (static_cast<unsigned char>(k.prefix[0]) != c || !s.matches(ws, k.prefix)) continue;
    const size_t b = ws + k.prefix.size();
    size_t e = b;
    bool digit = false;
    while (e < b + k.max_body + 1 && body_byte(k.body, s.at(e))) digit |= s.digit(e++);
    const size_t len = e - b;
    if (len < k.min_body || len > k.max_body || (k.needs_digit && !digit)) continue;
    if (k.body == Body::kDotted && s.at(e - 1) == '.') continue;
    s.add(PiiType::kApiKey, ws, e);
    return;
  }
}

// Whether a query string's next "name=" starts at i ("...&user=bob"), so a
// '&' before it ends a value; otherwise '&' is part of the value
// ("Tr0ub4dor&3").
bool next_query_pair(const Scan& s, size_t i) {
  size_t e = i;
  while (e < i + 64 && (s.word(e) || s.at(e) == '-' || s.at(e) == '.')) ++e;
  return e > i && s.at(e) == '=';
}

// name [=|:|:=|=>| is ] value: the value (quoted or up to a blank or a
// delimiter) is a PASSWORD or an API_KEY by the name. Values that are
// placeholders ("${DB_PASS}", "<password>", "****", "null") are skipped.
// The " is " form ("my password is hunter2!") is reached from a digit in the
// value (detect_token) and needs a digit or mark there, so "the password is
// required" is not a password.
void detect_key_value(Scan& s, size_t ws, size_t we) {
  size_t nb = ws;
  while (nb > 0 && ws - nb < 64 && (s.word(nb - 1) || s.at(nb - 1) == '-')) --nb;
  const KeyName kind = classify_name(s, nb, we);
  if (kind == KeyName::kNone) return;
  size_t i = we;
  if (s.at(i) == '"' || s.at(i) == '\'') ++i;
  i = [&] {
    size_t k = i;
    while (k < i + 4 && s.blank(k)) ++k;
    return k;
  }();
  bool is_form = false;
  if (s.at(i) == '=') {
    ++i;
    if (s.at(i) == '=') return;  // a comparison
    if (s.at(i) == '>') ++i;     // "=>"
  } else if (s.at(i) == ':') {
    ++i;
    if (s.at(i) == '=') ++i;  // ":="
  } else if (s.matches_word(i, "is") && s.blank(i + 2)) {
    is_form = true;
    i += 3;
  } else {
    return;
  }
  while (s.blank(i)) ++i;
  unsigned char quote = s.at(i);
  if (quote == '"' || quote == '\'' || quote == '`') {
    ++i;
  } else {
    quote = 0;
  }
  if (kind == KeyName::kSecret) {
    // "Authorization: Bearer <token>" / "token: Basic <b64>".
    for (std::string_view scheme : {std::string_view("bearer "), std::string_view("basic "),
                                    std::string_view("token ")}) {
      if (s.matches(i, scheme)) {
        i += scheme.size();
        break;
      }
    }
  }
  const size_t b = i;
  size_t e = b;
  while (e < b + 256) {
    const unsigned char c = s.at(e);
    if (c == 0 || (kClass[c] & kLineEnd)) break;
    if (quote ? c == quote : ((kClass[c] & kBlank) || c == ',' || c == ';' || c == ')' || c == '}' || c == ']' ||
                              c == '>' || c == '"' || c == '\'' || (c == '&' && next_query_pair(s, e + 1)))) {
      break;
    }
    ++e;
  }
  if (quote && s.at(e) != quote) return;  // unterminated or too long
  if (!quote) {
    while (e > b && (s.at(e - 1) == '.' || s.at(e - 1) == '!' || s.at(e - 1) == '?') && !s.word(e)) --e;
  }
  if (e == b || is_placeholder(s, b, e)) return;
  if (!quote && code_expression(s, b, e)) return;
  if (is_form) {
    bool mark = false;
    for (size_t k = b; k < e && !mark; ++k) mark = !s.alpha(k);
    if (!mark) return;
  }
  switch (kind) {
    case KeyName::kNone: return;
    case KeyName::kPassword: s.add(PiiType::kPassword, b, e); return;
    case KeyName::kSecret:
      if (credential_like(s, b, e, 8)) s.add(PiiType::kApiKey, b, e);
      return;
    case KeyName::kWeakSecret:
      if (credential_like(s, b, e, 16)) s.add(PiiType::kApiKey, b, e);
      return;
  }
}

// "-----BEGIN <label> PRIVATE KEY-----" (RSA, EC, OPENSSH, ENCRYPTED, PGP ...
// BLOCK) through the matching END line. Without an END line the block runs to
// the end of the text: key material may follow, and failing closed is safer.
void detect_private_key(Scan& s, size_t dashes) {
  if (dashes > 0 && s.at(dashes - 1) == '-') return;
  if (!s.matches(dashes, "-----begin ")) return;
  size_t i = dashes + 11;
  const size_t label_end_limit = i + 64;
  bool private_key = false;
  while (i < label_end_limit && s.at(i) != '-' && !(s.cls(i) & kLineEnd) && s.at(i) != 0) {
    if (s.matches(i, "private key")) private_key = true;
    ++i;
  }
  if (!private_key || !s.matches(i, "-----")) return;
  size_t end = s.size();
  for (size_t k = i + 5; k + 8 <= s.size(); ++k) {
    if (s.at(k) == '-' && s.matches(k, "-----end")) {
      size_t close = k + 8;
      while (close < k + 80 && close < s.size() && s.at(close) != '-' && !(s.cls(close) & kLineEnd)) ++close;
      end = s.matches(close, "-----") ? close + 5 : close;
      break;
    }
  }
  s.add(PiiType::kPrivateKey, dashes, end);
  s.resume_at = end;
}

// Generic secrets: a token of 20-4096 bytes from [A-Za-z0-9_+/=-] that looks
// random rather than like words or an identifier:
//  - letters and digits mixed (digit-free strings are CamelCase names far
//    more often than keys; base62 keys of 20 bytes lack a digit ~3% of the
//    time),
//  - no '_'- or '-'-separated part that is a word (5+ letters, one case:
//    "SSD1306_SWITCHCAPVCC"),
//  - few vowels among the letters (< 30%: random letters have 19-23%, words
//    and names built from them 35-45%, "schulman2017proximal"), unless
//    digits and letters alternate often (4+ and len/8+ changes), as they do
//    in random strings and not in names with a year in them,
//  - Shannon entropy of its bytes >= 3.4 bits (random base62 of 20 bytes has
//    about 4.0, lower-case and digits about 3.8; "aaaa...1" far less),
//  - not a path (leading '/' or '~', or three or more slashes).
// Measured on random strings: 93-95% of 20-byte base62/base64url tokens pass,
// 99% from 32 bytes, 98-100% of lower- or upper-case-and-digit ones; of the
// 8.5 MB of real prompts in ../shared/data only one token passes (a bot token
// in a code sample).
// Hex-only strings (git SHAs, digests) and UUIDs are identifiers more often
// than secrets: they count only when 32+ hex digits follow a secret word
// ("key", "token", "secret", ...) on the same line.
void detect_high_entropy(Scan& s, size_t ts, size_t te) {
  const size_t len = te - ts;
  if (len < 20 || len > 4096) return;
  if (s.at(ts) == '/' || s.at(ts) == '~') return;
  int counts[256] = {};
  int digits = 0, upper = 0, lower = 0, vowels = 0, slashes = 0, hex_only = 1, dashes = 0, changes = 0;
  for (size_t k = ts; k < te; ++k) {
    const unsigned char c = s.at(k);
    changes += k > ts && s.digit(k) != s.digit(k - 1);
    ++counts[c];
    const uint8_t cl = kClass[c];
    digits += (cl & kDigit) != 0;
    upper += (cl & kUpper) != 0;
    lower += (cl & kLower) != 0;
    const unsigned char l = to_lower(c);
    vowels += l == 'a' || l == 'e' || l == 'i' || l == 'o' || l == 'u';
    slashes += c == '/';
    dashes += c == '-';
    if (!(cl & (kDigit | kHexLetter)) && c != '-') hex_only = 0;
  }
  if (slashes >= 3) return;
  if (hex_only) {
    // UUIDs (8-4-4-4-12) and plain hex: only with a secret word before.
    const bool uuid = len == 36 && dashes == 4 && s.at(ts + 8) == '-' && s.at(ts + 13) == '-' &&
                      s.at(ts + 18) == '-' && s.at(ts + 23) == '-';
    if ((uuid || (dashes == 0 && len >= 32)) && secret_context_before(s, ts)) s.add(PiiType::kApiKey, ts, te, kRankGenericSecret);
    return;
  }
  const int letters = upper + lower;
  if (digits == 0 || letters == 0) return;
  const bool alternating = changes >= 4 && static_cast<size_t>(changes) * 8 >= len;
  if (!alternating && vowels * 100 >= letters * 30) return;
  // Identifiers joined by '_' or '-' ("SSD1306_SWITCHCAPVCC", "max_len_2048"):
  // a part of five or more letters in one case is a word, not key material.
  size_t part = ts;
  while (part < te) {
    size_t end = part;
    uint8_t seen = 0;
    while (end < te && s.at(end) != '_' && s.at(end) != '-') seen |= s.cls(end++);
    const uint8_t cases = seen & (kUpper | kLower);
    if (end - part >= 5 && !(seen & kDigit) && cases != (kUpper | kLower) && (end < te || part > ts)) return;
    part = end + 1;
  }
  double entropy = 0;
  const double n = static_cast<double>(len);
  for (int c = 0; c < 256; ++c) {
    if (counts[c]) {
      const double p = counts[c] / n;
      entropy -= p * std::log2(p);
    }
  }
  if (entropy < 3.4) return;
  s.add(PiiType::kApiKey, ts, te, kRankGenericSecret);
}

void detect_token(Scan& s, size_t ts, size_t te) {
  // A JWT whose first part has no digit: the digit that led here is in a
  // later part; find the header before the dots.
  if (ts > 0 && s.at(ts - 1) == '.') {
    size_t js = ts;
    while (js > 0 && ts - js < 8192 && (base64url_byte(s.at(js - 1)) || s.at(js - 1) == '.')) --js;
    if (s.matches(js, "eyj")) detect_key_prefix(s, js);
  }
  detect_key_prefix(s, ts);
  size_t before = ts;
  while (before > 0 && ts - before < 4 && s.blank(before - 1)) --before;
  if (before < ts) {
    // "Bearer <token>"
    if (before >= 6 && s.matches(before - 6, "bearer") && !(before > 6 && s.alpha(before - 7)) && te - ts >= 16) {
      s.add(PiiType::kApiKey, ts, te);
    }
    // "<password word> is <value>" (the main loop sees '=' and ':' forms).
    if (before >= 3 && s.matches(before - 2, "is") && s.blank(before - 3)) {
      size_t ne = before - 3;
      while (ne > 0 && s.blank(ne - 1)) --ne;
      size_t nb = ne;
      while (nb > 0 && ne - nb < 64 && s.word(nb - 1)) --nb;
      if (nb < ne && classify_name(s, nb, ne) == KeyName::kPassword) detect_key_value(s, nb, ne);
    }
  }
  if (te - ts >= 20) detect_high_entropy(s, ts, te);
}

}  // namespace tiergate::pii_scan
