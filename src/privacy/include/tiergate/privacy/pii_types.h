// The kinds of personal data and secrets the privacy detectors report, and the
// span a detection covers. The type names are the labelled datasets' names
// (../shared/data/README.md, section pii) plus the secret and identifier kinds
// those datasets do not label (MAC_ADDRESS, US_PASSPORT, MEDICAL_RECORD_NUMBER,
// US_ITIN, API_KEY, PRIVATE_KEY, PASSWORD) and DATE_OF_BIRTH, which they label
// DATE_TIME (as_dataset_type()). Policy maps each type to a sensitivity class
// elsewhere; this header only names them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tiergate {

enum class PiiType : uint8_t {
  // Unstructured (the learned tagger's part of the scan).
  kPerson,
  kStreetAddress,
  kLocation,
  kOrganization,
  kTitle,
  kPrefix,
  kAge,
  kNrp,  // nationality, religious or political group
  // Structured identifiers (find_structured_pii).
  kCreditCard,
  kPhoneNumber,
  kDateTime,
  kEmailAddress,
  kUsSsn,
  kIbanCode,
  kDomainName,
  kUsDriverLicense,
  kIpAddress,
  kZipCode,
  kMacAddress,
  kUsPassport,
  kDateOfBirth,  // a date that words of birth announce ("DOB: 03/14/1985"); the datasets' DATE_TIME
  kMedicalRecordNumber,  // a patient's record number after its keyword ("MRN: 00482913"), an NHS number
  kUsItin,  // a US individual taxpayer identification number: 9XX-7X-XXXX, an SSN's shape in areas never issued
  // Secrets.
  kApiKey,
  kPrivateKey,
  kPassword,
};

// Every PiiType, in declaration order (for tables and reports).
inline constexpr std::array<PiiType, 26> kAllPiiTypes = {
    PiiType::kPerson,       PiiType::kStreetAddress, PiiType::kLocation,        PiiType::kOrganization,
    PiiType::kTitle,        PiiType::kPrefix,        PiiType::kAge,             PiiType::kNrp,
    PiiType::kCreditCard,   PiiType::kPhoneNumber,   PiiType::kDateTime,        PiiType::kEmailAddress,
    PiiType::kUsSsn,        PiiType::kIbanCode,      PiiType::kDomainName,      PiiType::kUsDriverLicense,
    PiiType::kIpAddress,    PiiType::kZipCode,       PiiType::kMacAddress,      PiiType::kUsPassport,
    PiiType::kDateOfBirth,  PiiType::kMedicalRecordNumber, PiiType::kUsItin, PiiType::kApiKey,
    PiiType::kPrivateKey,   PiiType::kPassword,
};

// The dataset's upper-case name: "PERSON", "STREET_ADDRESS", "CREDIT_CARD",
// "US_SSN", "NRP", "API_KEY", ... (exactly the names in the JSONL files).
std::string_view pii_type_name(PiiType type);

// The inverse of pii_type_name; exact, case-sensitive match. nullopt for any
// other string (the caller names the source of the bad value in its error).
std::optional<PiiType> parse_pii_type(std::string_view name);

// The type the labelled datasets give the same data: DATE_TIME for a
// DATE_OF_BIRTH (they label every date so); the type itself otherwise.
constexpr PiiType as_dataset_type(PiiType type) {
  return type == PiiType::kDateOfBirth ? PiiType::kDateTime : type;
}

// A detection: `type` found in [begin, end) of a UTF-8 text, in BYTE offsets,
// end exclusive, begin < end. The labelled datasets count code points instead;
// utf8_offsets.h converts.
struct PiiSpan {
  PiiType type;
  uint32_t begin;
  uint32_t end;

  uint32_t size() const { return end - begin; }
  friend bool operator==(const PiiSpan&, const PiiSpan&) = default;
};

}  // namespace tiergate
