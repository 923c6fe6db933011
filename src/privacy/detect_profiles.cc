// The people a profile's address names: after the host of a social or
// code-hosting site, the path holds its user's handle
// ("linkedin.com/in/priya-raman-4a2b1", "github.com/kwamemensah",
// "x.com/jdoe/status/1"), which a résumé or a bio pasted into a prompt
// carries as often as the name itself. The handle is a PERSON of the
// structured scan; the URL that holds it keeps its host (a URL's span is
// cut before a span of a higher rank inside its path).
#include <array>
#include <string_view>

#include "scan.h"
#include "tiergate/privacy/structured_pii.h"

namespace tiergate::pii_scan {
namespace {

struct ProfileSite {
  std::string_view host;    // lower-case, without "www." or another label before it
  std::string_view before;  // the path before the handle
  // Only a handle that ends the path is a person's: a repository's owner
  // ("github.com/facebook/react") is as often a firm, and a code question
  // needs the address whole.
  bool alone;
};

constexpr std::array<ProfileSite, 16> kSites = {{
    {"linkedin.com", "/in/", false},
    {"linkedin.com", "/pub/", false},
    {"github.com", "/", true},
    {"gitlab.com", "/", true},
    {"twitter.com", "/", false},
    {"x.com", "/", false},
    {"instagram.com", "/", false},
    {"facebook.com", "/", false},
    {"threads.net", "/@", false},
    {"tiktok.com", "/@", false},
    {"youtube.com", "/@", false},
    {"medium.com", "/@", false},
    {"reddit.com", "/user/", false},
    {"reddit.com", "/u/", false},
    {"t.me", "/", false},
    {"bsky.app", "/profile/", false},
}};

// The first segments of those sites' paths that name a page, not a user.
// (Handles are two bytes or more: Instagram's "p" is turned away by its
// length.)
constexpr std::array<std::string_view, 38> kPages = {
    "about",    "accounts", "company",  "explore",  "events",   "features",      "feed",    "groups",
    "hashtag",  "help",     "home",     "intent",   "jobs",     "legal",         "login",   "logout",
    "marketplace", "messages", "notifications", "orgs", "pages", "policies", "pricing", "privacy",
    "profile.php", "reel",  "reels",    "school",   "search",   "settings",      "share",   "sharer",
    "signup",   "stories",  "terms",    "topics",   "trending", "watch"};

bool is_page(const Scan& s, size_t begin, size_t end) {
  for (const std::string_view page : kPages) {
    if (page.size() == end - begin && s.matches(begin, page)) return true;
  }
  return false;
}

// Whether [host, host_end) is `site` or a host under it ("www.", "m.",
// "uk.linkedin.com"), any case.
bool on_site(const Scan& s, size_t host, size_t host_end, std::string_view site) {
  const size_t n = host_end - host;
  if (n < site.size() || !s.matches(host_end - site.size(), site)) return false;
  return n == site.size() || s.at(host_end - site.size() - 1) == '.';
}

// A handle's bytes: letters, digits and the marks handles hold.
bool handle_byte(const Scan& s, size_t i) {
  const unsigned char c = s.at(i);
  return s.alnum(i) || c == '-' || c == '_' || c == '.' || c == '%';
}

}  // namespace

void detect_profile_handle(Scan& s, size_t host, size_t host_end) {
  // (Most hosts are none of the sites: their last byte turns most away.)
  const unsigned char last = s.lower(host_end - 1);
  if (last != 'm' && last != 't' && last != 'e' && last != 'p') return;
  if (s.at(host_end) != '/') return;
  for (const ProfileSite& site : kSites) {
    if (!on_site(s, host, host_end, site.host) || !s.matches(host_end, site.before)) continue;
    const size_t begin = host_end + site.before.size();
    size_t end = begin;
    while (end < begin + 100 && handle_byte(s, end)) ++end;
    while (end > begin && (s.at(end - 1) == '.' || s.at(end - 1) == '%')) --end;
    if (end - begin < 2 || is_page(s, begin, end)) return;
    // (A path that goes on after the handle: "github.com/owner/repo".)
    if (site.alone && s.at(end) == '/' && handle_byte(s, end + 1)) return;
    s.add(PiiType::kPerson, begin, end, pii_type_rank(PiiType::kDomainName) + 1);
    return;
  }
}

}  // namespace tiergate::pii_scan
