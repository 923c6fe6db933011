#include "tiergate/privacy/pii_types.h"

namespace tiergate {

std::string_view pii_type_name(PiiType type) {
  switch (type) {
    case PiiType::kPerson: return "PERSON";
    case PiiType::kStreetAddress: return "STREET_ADDRESS";
    case PiiType::kLocation: return "LOCATION";
    case PiiType::kOrganization: return "ORGANIZATION";
    case PiiType::kTitle: return "TITLE";
    case PiiType::kPrefix: return "PREFIX";
    case PiiType::kAge: return "AGE";
    case PiiType::kNrp: return "NRP";
    case PiiType::kCreditCard: return "CREDIT_CARD";
    case PiiType::kPhoneNumber: return "PHONE_NUMBER";
    case PiiType::kDateTime: return "DATE_TIME";
    case PiiType::kEmailAddress: return "EMAIL_ADDRESS";
    case PiiType::kUsSsn: return "US_SSN";
    case PiiType::kIbanCode: return "IBAN_CODE";
    case PiiType::kDomainName: return "DOMAIN_NAME";
    case PiiType::kUsDriverLicense: return "US_DRIVER_LICENSE";
    case PiiType::kIpAddress: return "IP_ADDRESS";
    case PiiType::kZipCode: return "ZIP_CODE";
    case PiiType::kMacAddress: return "MAC_ADDRESS";
    case PiiType::kUsPassport: return "US_PASSPORT";
    case PiiType::kDateOfBirth: return "DATE_OF_BIRTH";
    case PiiType::kMedicalRecordNumber: return "MEDICAL_RECORD_NUMBER";
    case PiiType::kUsItin: return "US_ITIN";
    case PiiType::kApiKey: return "API_KEY";
    case PiiType::kPrivateKey: return "PRIVATE_KEY";
    case PiiType::kPassword: return "PASSWORD";
  }
  return "UNKNOWN";  // unreachable: the switch covers every enumerator
}

std::optional<PiiType> parse_pii_type(std::string_view name) {
  for (PiiType type : kAllPiiTypes) {
    if (pii_type_name(type) == name) return type;
  }
  return std::nullopt;
}

}  // namespace tiergate
