// An LD_PRELOAD shim for the DNS-failure cell of the fault matrix: looking
// up any host under ".dns-fault.test" fails as an unknown name (EAI_NONAME)
// at once, so the child sees a real resolver failure without a query leaving
// the machine; every other lookup goes to the C library. libcurl's threaded
// resolver calls getaddrinfo, so this is what tiergate's cloud engine meets.
#include <dlfcn.h>
#include <netdb.h>

#include <cstring>

namespace {

using GetAddrInfo = int (*)(const char*, const char*, const addrinfo*, addrinfo**);

bool faulty(const char* node) {
  constexpr const char* kSuffix = ".dns-fault.test";
  if (node == nullptr) return false;
  const size_t n = std::strlen(node);
  const size_t m = std::strlen(kSuffix);
  return n >= m && std::strcmp(node + n - m, kSuffix) == 0;
}

}  // namespace

extern "C" int getaddrinfo(const char* node, const char* service, const addrinfo* hints, addrinfo** res) {
  if (faulty(node)) return EAI_NONAME;
  static const auto real = reinterpret_cast<GetAddrInfo>(dlsym(RTLD_NEXT, "getaddrinfo"));
  return real(node, service, hints, res);
}
