// The whole scan with a tagger trained as docs/privacy.md trains it (the
// labelled dev rows of ../shared/data, read in place, and the word lists of
// scripts/setup.sh) on sentences of our own that the dev templates do not
// write: each person's name in them must lie inside spans of types that the
// default policy redacts for a public upstream. A name typed a place or a
// firm, or left out, leaves the device there. Skips when the dev rows or
// the word lists are absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tiergate/privacy/gazetteer.h"
#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/pii_types.h"
#include "tiergate/privacy/policy.h"

namespace tiergate {
namespace {

const char* kDevFile = TIERGATE_SOURCE_DIR "/../shared/data/pii/presidio_generated_dev.jsonl";
const char* kWordLists = TIERGATE_SOURCE_DIR "/third_party/gazetteers";

struct Probe {
  std::string text;
  std::vector<std::string> names;  // each must not leave the device
};

// Forms each found leaking before the rule that now holds it (2026-12-05,
// 2026-12-06).
const std::vector<Probe> kProbes = {
    {"Patient: J. Smith, DOB 03/14/1975, seen by Dr. K. Patel.", {"J. Smith", "K. Patel"}},
    {"whats the best way to tell my boss mike that i'm quitting", {"mike"}},
    {"Contract between Acme Holdings Ltd and John Paul Jones, residing at 14 Kings Road.", {"John Paul Jones"}},
    {"Good morning Mr President, I'm Marco from the Rome office.", {"Marco"}},
    {"Please send flowers to Savannah Miller at her office.", {"Savannah Miller"}},
    {"Our CEO Satya Nadella will speak; contact his assistant, Lisa Brown.", {"Satya Nadella", "Lisa Brown"}},
    {"Dear J. Doe, thank you for your letter.", {"J. Doe"}},
    {"Please review the draft.\ncc J. Doe and K. Young\n\nKind regards,\nA. Baker", {"J. Doe", "K. Young", "A. Baker"}},
    // And forms that held before, as a guard.
    {"From: Olivia Bennett <olivia.bennett@northwind.com>\nTo: Marcus Lee", {"Olivia Bennett", "Marcus Lee"}},
    {"my grandmother rosa lopez is 87 and lives in san antonio", {"rosa lopez"}},
    {"Customer complaint from Mrs. Eleanor Whitaker regarding order #55821.", {"Eleanor Whitaker"}},
    {"Add a row for Chen Wei, age 34, department Finance.", {"Chen Wei"}},
    {"Kim Ji-woo joined the team; the account belongs to Abdullahi Musa Bello.", {"Kim Ji-woo", "Abdullahi Musa Bello"}},
    {"Write an email to Yerlan Abenov; is it rude to remind Guadalupe that she owes me money?", {"Yerlan Abenov", "Guadalupe"}},
    {"I met Wang Lei yesterday. Dallas Green and Austin Reed founded the band.", {"Wang Lei", "Austin Reed"}},
    {"Write a speech introducing our keynote speaker, Wangari Muta.", {"Wangari Muta"}},
    {"i'm priyanka and i need help with my resume", {"priyanka"}},
    {"Ticket #4412\nAssigned to: Sunil Rao\nStatus: open", {"Sunil Rao"}},
    {"Frank Long called; I had lunch with Bill Gray yesterday.", {"Frank Long", "Bill Gray"}},
    {"Ask Miles Hunter if he wants the window seat.", {"Miles Hunter"}},
    {"Hunter Reed and Sage Moore applied for the role.", {"Hunter Reed", "Sage Moore"}},
    {"Tell Pat I said hi, and thank Bill Gray for me.", {"Pat", "Bill Gray"}},
    {"Re: complaint from JOHN MICHAEL DOE about billing. Beneficiary name: AHMED KHAN",
     {"JOHN MICHAEL DOE", "AHMED KHAN"}},
    {"APPLICANT NAME: JOHN MICHAEL DOE\nDATE OF BIRTH: 01/02/1980", {"JOHN MICHAEL DOE"}},
    {"I saw Professor Smith at the store; Nurse Ratched gave me the pills.", {"Smith", "Ratched"}},
    {"Dear Professor Hendricks, I emailed professor hendricks's office and Sgt. Reyes.",
     {"Hendricks", "hendricks", "Reyes"}},
    {"Is Sunday okay for Phoenix's recital?", {"Phoenix"}},
    // (2026-12-06, later.)
    {"Please proofread the letter from Siobh\u00e1n O'Connor-Healy to her landlord.", {"Siobh\u00e1n O'Connor-Healy"}},
    {"Summarize: 67 y/o male (R. Okafor) admitted 3/4.\nR. Okafor was discharged on Monday.", {"R. Okafor"}},
    {"Respond to this review by Gwendolyn P.: \"Great service!\"", {"Gwendolyn P."}},
    {"Fix this JSON: {\"name\": \"Oluwaseun Adeyemi\", \"address\": \"4127 kelly stravenue, tulsa\"}",
     {"Oluwaseun Adeyemi", "4127 kelly stravenue"}},
    {"Kannst du Herrn Becker antworten? Sehr geehrter Herr Dr. Wagner,", {"Becker", "Wagner"}},
    {"Ch\u00e8re Madame Girard, merci.", {"Girard"}},
    // Names in small letters in text with capitals (2026-12-06, a third).
    {"Schedule lunch with derek next Tuesday, then summarize the notes from rachel.", {"derek", "rachel"}},
    {"Draft a message to jessica and tom about the launch. Invite carlos, maria, and jen.",
     {"jessica", "tom", "carlos", "maria", "jen"}},
    {"Can you text mike that I'm late? Help me respond to melissa's email.", {"mike", "melissa"}},
    // In text without capitals: a name the decoder took for a place, a
    // surname that is an everyday word too.
    {"please proofread the letter from siobhan oconnor to her landlord.", {"siobhan oconnor"}},
    {"this lease is made between acme property llc and jane doe (the \"tenant\").", {"jane doe"}},
    // A drive's "Dr" (a title to the lists and the decoder) and a quadrant.
    {"Draft a listing for 4821 Lakeview Dr, Austin TX 78731; owner Priya Shah.", {"4821 Lakeview Dr", "Priya Shah"}},
    {"Please draft a listing for 4821 Oak Dr.", {"4821 Oak Dr"}},
    {"Visit 1600 Pennsylvania Ave NW, Washington, DC 20500", {"1600 Pennsylvania Ave NW"}},
    // The decoder's address that opens at the street's ordinal.
    {"To: Kwame Mensah, Unit 4B, 220 W 14th St, New York, NY 10011", {"Kwame Mensah", "Unit 4B, 220 W 14th St"}},
    {"Our office: Suite 300, 500 Market St, San Francisco, CA 94105", {"Suite 300, 500 Market St"}},
    // A thread pasted on one line: a speaker after a sentence's stop.
    {"Can you summarize this thread? Emily: the venue is booked. Josh: great, I'll tell Grandma Rose.",
     {"Emily", "Josh", "Rose"}},
    // A profile's handle in a résumé's links.
    {"Improve my resume. Links: https://www.linkedin.com/in/priya-raman-4a2b1/ | github.com/kwamemensah",
     {"priya-raman-4a2b1", "kwamemensah"}},
    // (2026-12-06, a fourth.) A surname set off after a first name that a
    // place's list knows too; names beside the speaker; a title after a
    // date's day; a role written as a title.
    {"select * from patients where name = 'robert mills' and dob = '1962-07-19';", {"robert mills"}},
    {"Yesterday me and kevin went to see the flat; priya and I stayed home.", {"kevin", "priya"}},
    {"Summarize this: On April 2, Officer Delgado stopped a vehicle driven by Tremaine Jackson.",
     {"Delgado", "Tremaine Jackson"}},
    {"The lease is between Landlord Henrik S\u00f8rensen and Tenant Camille Laurent-Petit for the unit.",
     {"Henrik S\u00f8rensen", "Camille Laurent-Petit"}},
    {"Plaintiff MARIA JOSE DE LA CRUZ v. Defendant HARBOR FREIGHT LLC. I met MARIA DE LA TORRE today.",
     {"MARIA JOSE DE LA CRUZ", "MARIA DE LA TORRE"}},
    // A line's fields apart by a dash between blanks, after a line that
    // ends in a number (the decoder read a city's line there).
    {"Phone list\nKaren Holt \u2013 ext. 234\nDiego Alvarez \u2013 ext. 251\nMei Lin Zhou - ext. 260",
     {"Karen Holt", "Diego Alvarez", "Mei Lin Zhou"}},
};

// Names that the whole scan must also type as names, not only keep on the
// device: a name typed an address is redacted, but a policy that lets a
// class of addresses out, or an audit that counts them, reads it wrongly.
const std::vector<Probe> kTypedProbes = {
    // The decoder took these for addresses (2026-12-06).
    {"I spoke with Anna K. Smith yesterday.", {"Anna K. Smith"}},
    {"Thanks to Maria L. and Tom B. for the help.", {"Maria L.", "Tom B."}},
    // A name with a hyphen after a title, of which the decoder found the
    // last word.
    {"I saw Professor Smith-Jones today.", {"Smith-Jones"}},
};

TEST(DefaultPolicyProbesTest, NamesStayOnTheDeviceUnderTheDefaultPolicy) {
  if (!std::filesystem::exists(kDevFile)) {
    GTEST_SKIP() << kDevFile << " is absent (the shared evaluation data lives beside the repository); skipping";
  }
  if (!std::filesystem::is_directory(kWordLists)) {
    GTEST_SKIP() << kWordLists << " is absent (scripts/setup.sh installs the word lists); skipping";
  }
  StatusOr<std::vector<PiiExample>> rows = load_pii_jsonl(kDevFile);
  ASSERT_TRUE(rows.is_ok()) << rows.status().to_string();
  StatusOr<std::vector<GazetteerList>> lists = load_gazetteer_dir(kWordLists);
  ASSERT_TRUE(lists.is_ok()) << lists.status().to_string();
  TaggerOptions options;
  options.gazetteers = *lists;
  const PiiTagger tagger = PiiTagger::train(*rows, options);
  const PrivacyPolicy policy = PrivacyPolicy::defaults();
  // Calls check(probe, spans, name, at) for each name of each probe, at
  // its byte in the probe's text.
  auto for_each_name = [&](const std::vector<Probe>& probes, auto&& check) {
    for (const Probe& probe : probes) {
      std::vector<PiiSpan> spans;
      find_pii(probe.text, &tagger, spans);
      for (const std::string& name : probe.names) {
        const size_t at = probe.text.find(name);
        ASSERT_NE(at, std::string::npos) << name;
        check(probe, spans, name, at);
      }
    }
  };
  for_each_name(kTypedProbes, [](const Probe& probe, const std::vector<PiiSpan>& spans, const std::string& name, size_t at) {
    const bool named = std::any_of(spans.begin(), spans.end(), [&](const PiiSpan& s) {
      return s.type == PiiType::kPerson && s.begin <= at && at + name.size() <= s.end;
    });
    EXPECT_TRUE(named) << "'" << name << "' is in no name in: " << probe.text;
  });
  for_each_name(kProbes, [&](const Probe& probe, const std::vector<PiiSpan>& spans, const std::string& name, size_t at) {
    for (size_t b = at; b < at + name.size(); ++b) {
      if (probe.text[b] == ' ') continue;
      bool redacted = false;
      for (const PiiSpan& s : spans) {
        redacted = redacted || (s.begin <= b && b < s.end &&
                                policy.action_for(pii_type_name(s.type), TrustLevel::kPublic) != PrivacyAction::kAllow);
      }
      EXPECT_TRUE(redacted) << "'" << name << "' leaves the device at byte " << b - at << " in: " << probe.text;
      if (!redacted) break;
    }
  });
}

}  // namespace
}  // namespace tiergate
