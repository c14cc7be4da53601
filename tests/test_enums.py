"""Golden cases for the enum rule family (communication preferences)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import word_soup
from hypothesis import given, settings
from hypothesis import strategies as st

from writegate.normalizer import enums
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.languages import language_code
from writegate.normalizer.schema import EnumPreferenceValue, EnumValue, ProvenanceKind, Record

CTX = Context("user:sam", datetime(2026, 3, 2, 10, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)


def _values(records: list[Record]) -> list[EnumValue]:
    return [r.value.enum for r in records if isinstance(r.value, EnumPreferenceValue)]


# (id, text, {attribute: value}); {} = no enum record
CASES: list[tuple[str, str, dict[str, str]]] = [
    # dev-set references
    ("dev-detailed-write-ups", "Sam wants detailed write-ups.", {"verbosity": "detailed"}),
    ("dev-email-reach", "Email is the best way to reach Sam.", {"channel": "email"}),
    ("dev-replies-spanish", "Sam prefers replies in Spanish.", {"language": "es"}),
    # verbosity
    ("vb-short-answers", "I like short answers.", {"verbosity": "concise"}),
    ("vb-to-the-point", "Keep replies to the point.", {"verbosity": "concise"}),
    ("vb-tldr", "tl;dr please, always.", {"verbosity": "concise"}),
    ("vb-keep-it-short", "Keep it short.", {"verbosity": "concise"}),
    ("vb-in-depth", "The user wants explanations in depth.", {"verbosity": "detailed"}),
    ("vb-thorough", "I like thorough explanations.", {"verbosity": "detailed"}),
    ("vb-neg-long-winded", "I hate long-winded answers.", {"verbosity": "concise"}),
    ("vb-neg-not-detailed", "Sam does not want detailed reports.", {"verbosity": "concise"}),
    ("vb-neg-brief", "No brief replies, she wants the reasoning.", {"verbosity": "detailed"}),
    ("vb-stop-after", "Concise is outdated: keep explanations thorough.", {"verbosity": "detailed"}),
    ("vb-stop-before", "Done with concise — keep explanations detailed.", {"verbosity": "detailed"}),
    ("vb-stop-are-out", "Short answers are out; give her thorough explanations.", {"verbosity": "detailed"}),
    (
        "vb-no-longer-far-away",
        "She wants concise replies now that she no longer manages the team.",
        {"verbosity": "concise"},
    ),
    # channel
    ("ch-ping-slack", "Ping me on Slack.", {"channel": "slack"}),
    ("ch-negated-then-positive", "Don't email me, Slack me instead.", {"channel": "slack"}),
    ("ch-text-me", "Text me if it's urgent.", {"channel": "sms"}),
    ("ch-call-me", "Call me anytime.", {"channel": "phone"}),
    ("ch-zoom", "Sam prefers Zoom for check-ins.", {"channel": "video"}),
    ("ch-teams", "Reach the user on Microsoft Teams.", {"channel": "video"}),
    ("ch-face-to-face", "I prefer face to face.", {"channel": "in_person"}),
    ("ch-whatsapp", "Best to reach her via WhatsApp.", {"channel": "sms"}),
    ("ch-neg-only", "Not email.", {}),
    ("ch-stop-was-dropped", "Slack was dropped: email me.", {"channel": "email"}),
    ("ch-stop-ended", "A phone call ended — she prefers text messages.", {"channel": "sms"}),
    ("ch-no-preference-context", "Sam sent an email about the budget.", {}),
    ("ch-other-holder", "Lee prefers Slack.", {}),
    ("ch-reach-other", "Email is the best way to reach Lee.", {}),
    # formality
    ("fm-formal-emails", "Sam prefers formal emails.", {"formality": "formal", "channel": "email"}),
    ("fm-casual", "Keep things casual with me.", {"formality": "casual"}),
    ("fm-neg-formal", "Please don't be too formal.", {"formality": "casual"}),
    ("fm-first-name", "We're on a first-name basis.", {"formality": "casual"}),
    ("fm-stop-ignore", "Ignore formal now — write to him in a casual style.", {"formality": "casual"}),
    ("fm-stop-no-longer-applies", "I expect a professional tone, casual no longer applies.", {"formality": "formal"}),
    ("fm-stop-used-to-be", "Used to be formal; now write casually.", {"formality": "casual"}),
    ("fm-casual-friday", "Casual Fridays are great.", {}),
    # language
    ("lg-write-to-me", "Write to me in German.", {"language": "de"}),
    ("lg-code", "Respond in de.", {"language": "de"}),
    ("lg-lower-case-name", "i want emails in korean.", {"channel": "email", "language": "ko"}),
    ("lg-in-person-is-not-persian", "I prefer to talk in person.", {"channel": "in_person"}),
    ("lg-prefers-french", "Sam prefers French.", {"language": "fr"}),
    ("lg-preferred-language", "Her preferred language is Portuguese.", {"language": "pt"}),
    ("lg-speaks-is-fact", "Sam speaks Japanese.", {}),
    ("lg-learning-is-fact", "The user is also learning Japanese.", {}),
    ("lg-prefers-french-food", "Sam prefers French food.", {}),
    ("lg-programming", "Sam writes in Java.", {}),
    # format
    ("ft-bullets", "The user wants replies in bullet points.", {"format": "bullets"}),
    ("ft-prose-over-bullets", "The user now prefers flowing prose over bullet lists.", {"format": "prose"}),
    ("ft-bulleted-lists", "Use bulleted lists when answering the user.", {"format": "bullets"}),
    ("ft-tables", "She likes tables for comparisons.", {"format": "table"}),
    ("ft-neg-ternary", "No bullet points please.", {}),
    ("ft-paragraphs", "Answer me in full sentences.", {"format": "prose"}),
    # widened shapes: language
    ("lg-neg-updates-in-a-city", "The user wants updates in Paris.", {}),
    ("lg-documents-in", "The user wants documents in Italian.", {"language": "it"}),
    ("lg-documents-lower-case", "user needs documents in portuguese", {"language": "pt"}),
    ("lg-chats-in", "The user wants chats in Japanese.", {"language": "ja"}),
    ("lg-prefers-documents-in", "the user prefers documents in Japanese", {"language": "ja"}),
    ("lg-favor-chats-in", "I favor chats in Dutch", {"language": "nl"}),
    ("lg-write-to-me-lower", "write to me in Japanese", {"language": "ja"}),
    ("lg-language-for-user", "Language for User: French.", {"language": "fr"}),
    ("lg-move-from-to", "User asked to move from Portuguese to French.", {"language": "fr"}),
    ("lg-neg-language-for-other", "Language for Lee: French.", {}),
    ("lg-neg-move-other", "Lee asked to move from Portuguese to French.", {}),
    ("lg-neg-write-to-other", "write to Sarah in Mandarin", {}),
    ("lg-neg-documents-other", "Lee wants documents in Italian.", {}),
    ("lg-neg-move-places", "The user moved from London to Berlin.", {}),
    ("lg-neg-speaks-lower", "speaks Japanese", {}),
    # widened shapes: verbosity
    ("vb-that-are-brief", "I appreciate updates that are brief.", {"verbosity": "concise"}),
    ("vb-that-are-in-depth", "User appreciates replies that are in-depth.", {"verbosity": "detailed"}),
    ("vb-keep-to-user", "keep explanations to the user thorough.", {"verbosity": "detailed"}),
    ("vb-keep-to-user-name", "Keep summaries to User detailed.", {"verbosity": "detailed"}),
    ("vb-double-negation", "Don't send the user updates that aren't short", {"verbosity": "concise"}),
    ("vb-switch-from-to", "Switch from concise to detailed replies.", {"verbosity": "detailed"}),
    ("vb-neg-keep-to-other", "Keep summaries to Lee detailed.", {}),
    ("vb-neg-that-are-other", "Lee appreciates replies that are in-depth.", {}),
    ("vb-neg-no-value", "I care about how updates are formatted", {}),
    # widened shapes: channel
    ("ch-updates-by-text-message", "User needs updates by text message", {"channel": "sms"}),
    ("ch-updates-by-slack", "the user needs updates by Slack", {"channel": "slack"}),
    ("ch-switched-to-zoom", "The user switched to Zoom for everything", {"channel": "video"}),
    ("ch-best-way-colon", "Best way to reach me: a phone call", {"channel": "phone"}),
    ("ch-qa-me-zoom", "Q: how should we contact me? A: Zoom", {"channel": "video"}),
    ("ch-qa-user-email", "Q: how should we contact the user? A: email", {"channel": "email"}),
    ("ch-move-teams-chat-to-slack", "The user asked us to move from Teams chat to Slack", {"channel": "slack"}),
    ("ch-teams-chat-is-sms", "I prefer Teams chat", {"channel": "sms"}),
    ("ch-neg-teams-chat-other", "Marianne prefers Teams chat", {}),
    ("ch-neg-qa-other", "Q: how should we contact Lee? A: email", {}),
    ("ch-neg-switched-other", "Lee switched to Zoom for everything", {}),
    ("ch-neg-updates-by-other", "Lee needs updates by Slack", {}),
    ("ch-neg-moved-thread", "Sam moved the email thread to the archive.", {}),
    ("ch-neg-answer-no-contact", "Q: what is Sam working on? A: the email migration", {}),
    ("ch-neg-no-value", "User has a preferred way to be contacted", {}),
    # widened shapes: formality
    ("fm-keep-professional-me", "Keep it professional with me", {"formality": "formal"}),
    ("fm-keep-professional-user", "Keep it professional with the user", {"formality": "formal"}),
    ("fm-relaxed-in-writing", "I'm relaxed in writing and expect the same", {"formality": "casual"}),
    ("fm-professional-in-writing", "the user is professional in writing and expects the same", {"formality": "formal"}),
    ("fm-casual-communication", "I like casual communication.", {"formality": "casual"}),
    ("fm-relaxed-communication", "The user likes relaxed communication", {"formality": "casual"}),
    ("fm-neg-keep-professional-other", "Keep it professional with Lee.", {}),
    ("fm-neg-relaxed-other", "Marianne is relaxed in writing and expects the same.", {}),
    ("fm-neg-no-value", "User is particular about tone", {}),
    # widened shapes: format
    ("ft-use-table-when-writing", "Use a table when writing summaries for me.", {"format": "table"}),
    ("ft-preferred-format-colon", "my preferred format for reports: a table", {"format": "table"}),
    ("ft-preferred-format-is-bullets", "My preferred format for reports is bullet points", {"format": "bullets"}),
    ("ft-tables-in-answers", "The user likes tables in answers", {"format": "table"}),
    ("ft-neg-cant-stand-tables", "The user can't stand tables in answers", {}),
    ("ft-neg-never-prose", "User never wanted prose", {}),
    ("ft-neg-table-furniture", "I use a table as a desk", {}),
    # several attributes, negatives
    (
        "multi",
        "Keep it brief, use bullet points, and email me.",
        {"verbosity": "concise", "format": "bullets", "channel": "email"},
    ),
    ("neg-question", "Does Sam prefer email?", {}),
    ("neg-unrelated", "Sam has a cat named Miso.", {}),
    ("neg-meeting-time", "The user prefers calls in the afternoon.", {}),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in CASES], ids=[i for i, _, _ in CASES])
def test_enum_golden(text: str, expected: dict[str, str]) -> None:
    records = enums.extract(text, CTX)
    assert {e.attribute.value: e.value for e in _values(records)} == expected
    assert all(
        r.slot == f"preference.{r.value.enum.attribute.value}" and r.subject == "user:sam"
        for r in records
        if isinstance(r.value, EnumPreferenceValue)
    )


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("Spanish", "es"),
        ("Deutsch", "de"),
        ("français", "fr"),
        ("Mandarin", "zh"),
        ("de", "de"),
        ("Slack", None),
        ("Python", None),
        ("it", None),
        ("Paris", None),
    ],
    ids=[
        "name",
        "endonym",
        "endonym-lower",
        "macrolanguage",
        "code",
        "not-a-language",
        "programming",
        "stop-code",
        "city-named-like-a-language-elsewhere",
    ],
)
def test_language_code(word: str, code: str | None) -> None:
    assert language_code(word) == code


def test_one_record_per_attribute() -> None:
    records = enums.extract("Email me. Actually Slack me, or call me.", CTX)
    assert [(e.attribute.value, e.value) for e in _values(records)] == [("channel", "email")]


ENUM_WORDS = (
    "Sam | Lee | prefers | not | no | email | Slack | me | short | answers | detailed | in | Spanish | de | "
    "bullet points | over | prose | formal | casual | tables | 's | , | . | ? | reach | she | É | 日本"
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), word_soup(ENUM_WORDS, max_size=30)))
def test_enums_never_raise(text: str) -> None:
    records = enums.extract(text, CTX)
    assert len({e.attribute for e in _values(records)}) == len(records)


# Real conversational text (persona chat): word senses that are not communication preferences, and the
# preferences that still count. An enum needs a preference frame of the subject (a preference verb whose
# holder is the subject, an instruction, a contact request) and a cue that names the channel / register /
# length / language / layout of communication itself.
REAL: list[tuple[str, str, dict[str, str]]] = [
    # channel: a medium or a device is no channel
    ("real-video-games", "I like video games.", {}),
    ("real-video-games-play", "On weekends I like to play racing video games with my cousins.", {}),
    ("real-video-games-kids", "My sons play video games way too much.", {}),
    ("real-favourite-video-game", "My favorite video game is Zelda.", {}),
    ("real-phone-broke", "My phone broke last week so I am using an old one.", {}),
    ("real-on-my-phone", "I'm always on my phone when I'm bored.", {}),
    ("real-phone-camera", "I use my phone to take pictures of my garden.", {}),
    ("real-nickname-call-me", "My friends call me Red because of my hair.", {}),
    ("real-call-me-adjective", "Call me old fashioned, but I love vinyl records.", {}),
    ("real-they-call-me", "I hope the hospital will call me for an interview.", {}),
    ("real-email-to-you", "I will email the recipe to you tonight.", {}),
    ("real-i-use-email", "I use email for work.", {}),
    ("real-see-in-person", "I would love to see a whale in person someday.", {}),
    ("real-meet-in-person-habit", "We meet in person once a month.", {}),
    ("real-interviews-via-zoom", "I'm hoping the first interviews happen via Zoom.", {}),
    ("real-other-prefers", "My husband prefers texting.", {}),
    ("real-you-prefer", "You said you prefer email.", {}),
    ("real-reach-by-email", "You can reach me by email most days.", {"channel": "email"}),
    ("real-text-me-instead", "I don't answer calls at work, text me instead.", {"channel": "sms"}),
    ("real-video-calls-work-best", "Video calls work best for me.", {"channel": "video"}),
    ("real-prefer-phone-calls", "I'd rather get a phone call than an email.", {"channel": "phone"}),
    ("real-call-me-anytime", "Call me after 6 if it's urgent.", {"channel": "phone"}),
    ("real-dm-me-slack", "DM me on Slack.", {"channel": "slack"}),
    # formality: an activity done casually is no register
    ("real-dress-casually", "I like to dress casually.", {}),
    ("real-play-casually", "I play tennis casually on Sundays.", {}),
    ("real-casual-fan", "I'm just a casual hockey fan.", {}),
    ("real-casual-restaurant", "I work at a casual restaurant downtown.", {}),
    ("real-formal-report", "I never got a formal report from the vet.", {}),
    ("real-formally-adopt", "I should formally adopt the cat.", {}),
    ("real-conversational-spanish", "I read Spanish well but my conversational skills are weak.", {}),
    ("real-keep-it-casual", "Keep it casual with me, no need for formalities.", {"formality": "casual"}),
    ("real-formal-tone", "Please keep the tone formal.", {"formality": "formal"}),
    # language: what someone speaks is no preference for replies (left to text)
    ("real-speak-spanish", "I speak Spanish and a little French.", {}),
    ("real-speak-in-spanish-family", "At home we speak in Spanish on Sundays.", {}),
    ("real-talk-to-workers", "I have to talk to my crew in Portuguese.", {}),
    ("real-prefer-french-wine", "I prefer French wine.", {}),
    ("real-prefer-japanese-cars", "I prefer Japanese cars.", {}),
    ("real-speak-to-me-in", "Speak to me in French, please.", {"language": "fr"}),
    ("real-reply-in", "Please reply in Spanish.", {"language": "es"}),
    # verbosity and format: ordinary words in chit-chat
    ("real-keep-it-short-habit", "I keep it short all the time at the barber.", {}),
    ("real-get-to-the-point-where", "It took me a year to get to the point where I could run a mile.", {}),
    ("real-all-the-details", "I'll send you all the details about the party.", {}),
    ("real-talk-in-depth", "We talked in depth about the trip.", {}),
    ("real-short-answer", "Short answer: yes!", {}),
    ("real-paragraphs", "I still have to write the last two paragraphs of my essay.", {}),
    ("real-table-saw", "I'm using a table saw for the deck.", {}),
    ("real-prefer-short-answers", "I prefer short answers.", {"verbosity": "concise"}),
    ("real-explain-in-detail", "Explain things in detail, please.", {"verbosity": "detailed"}),
    ("real-use-bullets", "Use bullet points when you summarize for me.", {"format": "bullets"}),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in REAL], ids=[i for i, _, _ in REAL])
def test_enum_real_text(text: str, expected: dict[str, str]) -> None:
    records = enums.extract(text, CTX)
    assert {e.attribute.value: e.value for e in _values(records)} == expected


# natural phrasing, both directions (asking for less is concise), the subject's only
PHRASED: list[tuple[str, str, dict[str, str]]] = [
    ("less-long-version", "Don't give me the long version, just the answer.", {"verbosity": "concise"}),
    ("less-just-summary", "I just want the summary.", {"verbosity": "concise"}),
    ("less-skip-preamble", "Skip the preamble and get to the point.", {"verbosity": "concise"}),
    ("less-no-need-explain", "No need to explain your reasoning.", {"verbosity": "concise"}),
    ("less-sentences", "Keep responses under three sentences.", {"verbosity": "concise"}),
    ("less-detail", "Less detail, please.", {"verbosity": "concise"}),
    ("less-over-explain", "Don't over-explain things to me.", {"verbosity": "concise"}),
    ("less-complaint", "User finds long replies overwhelming.", {"verbosity": "concise"}),
    ("less-essays", "Please stop writing essays.", {"verbosity": "concise"}),
    ("less-briefly", "Answer briefly.", {"verbosity": "concise"}),
    ("more-walk-through", "Walk me through it step by step.", {"verbosity": "detailed"}),
    ("more-full-reasoning", "User wants the full reasoning, not just the answer.", {"verbosity": "detailed"}),
    ("more-dont-skip", "More detail, please — don't skip steps.", {"verbosity": "detailed"}),
    ("more-explain-reasoning", "Please explain your reasoning.", {"verbosity": "detailed"}),
    ("format-checklist", "Format status reports as a checklist.", {"format": "bullets"}),
    (
        "format-and-length",
        "User prefers short bullet-point summaries by email.",
        {"verbosity": "concise", "format": "bullets", "channel": "email"},
    ),
    ("channel-a-text", "Best way to reach me is a text.", {"channel": "sms"}),
    ("channel-teams-chat", "I never check email; message me on Teams.", {"channel": "sms"}),
    ("channel-app", "Reach out on Signal, not email.", {"channel": "sms"}),
    ("channel-mobile", "For anything urgent, ring my mobile.", {"channel": "phone"}),
    ("formality-stiff", "Please don't be so stiff.", {"formality": "casual"}),
    ("formality-chatty", "User likes a friendly, chatty tone.", {"formality": "casual"}),
    ("formality-less", "Less formal please.", {"formality": "casual"}),
    ("formality-keep-emails", "Keep emails to clients polished and formal.", {"formality": "formal"}),
    ("language-switch", "Please switch to Dutch when you reply.", {"language": "nl"}),
    ("language-use", "Use Italian with me.", {"language": "it"}),
    ("language-variety", "Prefers answers in British English", {"language": "en"}),
    ("contrast-subject-after", "My team prefers Slack, but email me directly.", {"channel": "email"}),
    ("contrast-name-first", "Priya likes detailed write-ups, but I just want the summary.", {"verbosity": "concise"}),
    ("shared", "My manager likes bullet points, and so do I.", {"format": "bullets"}),
    ("other-manager", "My manager likes his updates as bullet points.", {}),
    ("other-the-ceo", "The CEO wants everything in a table.", {}),
    ("other-user-possessive", "User's brother prefers WhatsApp.", {}),
    ("other-name-possessive", "Sam's boss likes concise updates.", {}),
    ("plan-not-yet", "User is thinking about switching to Slack.", {}),
    ("delivery-not-channel", "Please email me the slides after the meeting.", {}),
    ("not-communication-too-long", "I waited too long to see the dentist.", {}),
    ("not-communication-song", "I love their song Step by Step.", {}),
    ("not-communication-venue", "I'd like to go to the Chase Center.", {}),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in PHRASED], ids=[i for i, _, _ in PHRASED])
def test_enum_phrased(text: str, expected: dict[str, str]) -> None:
    records = enums.extract(text, CTX)
    assert {e.attribute.value: e.value for e in _values(records)} == expected
