"""Pair constructions: for each label, the template families ("groups") and how they are built.

A family id is ``<slot>.<label>.<group>`` (``<slot>.twin`` for the pairs whose texts are reused
with two dates and two labels). Every generic wrapper below (attribution, change cues, "still"
markers, corrections) is itself a phrasing list split between train/dev/test by `core.part`.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass

from writegate.training.data.augment import augment
from writegate.training.data.core import (
    Ctx,
    Domain,
    Subj,
    choose,
    common_starts,
    lower_first,
    named,
    relative,
    render,
    third,
    user,
)
from writegate.training.data.core import part as part_of
from writegate.training.data.pools import MONTHS, WEEKDAYS, Person, Pools

# ---------------------------------------------------------------- generic phrasings
ATTRIB_PRE = (
    "!Per the CRM, ", "!According to {N}, ", "!From the onboarding call: ", "!Slack thread says ", "{N} mentioned that ",
    "Per {N}'s notes, ", "HR system: ", "From the kickoff notes — ", "Via email from {N}: ", "{N} told me ",
    "Per the org chart, ", "From the weekly sync: ", "Call notes: ", "Heard from {N}: ", "The wiki says ",
    "Per the support ticket, ", "From {N}'s handoff doc: ", "Meeting notes ({wd}): ", "Salesforce shows ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Per the vendor portal, ", "~According to the {proj} runbook, ", "~As {N} said on {wd}, ",
    "~Over lunch, {N} told me ", "~Source: the {month} survey — ", "~Via the shared calendar: ",
    "~The HubSpot record shows ", "~From {N}'s meeting notes: ", "~Screenshot from {N}, via Teams: ",
    "~In the {month} account review, {N} said ", "~Directory lookup shows ", "~Pulled from the Notion page: ",
    "~According to the {co} contact sheet, ", "~Per the {month} all-hands slides, ", "~Straight from {N}: ",
)
ATTRIB_POST = (
    "! (per the CRM)", "!, according to {N}", " — from the onboarding call", " per the Salesforce record", " (source: {N})",
    " per the org chart", " (from the weekly sync)", ", according to the wiki", ", {N} said", " (via {N})",
    " — noted in the QBR deck", ", per HR", " (from the intake form)", ", as {N} put it", " per the ticket",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ (per the Jira ticket)", "~, according to the {proj} runbook", "~ — {N} said so on {wd}",
    "~ (source: the {month} survey)", "~ (via the shared calendar)", "~, per a DM from {N}",
    "~ — the HubSpot record shows this", "~, as noted in the {month} board deck", "~ (as {N} told me)",
    "~, per my {wd} call notes", "~ — straight from {N}", "~, via {N} on Slack",
)
TEMPORAL_PRE = (
    "!As of {month}, ", "!Since last month, ", "!Starting Monday, ", "!In Q{q}, ", "Effective {month} 1, ",
    "From {month} onward, ", "Since the reorg, ", "After the {month} reshuffle, ", "Beginning next week, ",
    "Since {month}, ", "As of this week, ", "Recently, ", "Starting this quarter, ", "Since the new year, ",
    "As of {month} <YR>, ", "From now on, ",
    # v2.4
    "Since the move, ", "After the merger, ", "Starting {month}, ", "As of last week, ", "Going forward, ",
    "From this sprint on, ", "Since the handover, ", "Since coming back from leave, ", "This quarter, ", "Since {month} <YR>, ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Effective immediately, ", "~Since early {month}, ", "~As of the {month} planning cycle, ",
    "~Beginning in Q{q}, ", "~Since the start of <YR>, ", "~Ever since {month}, ", "~Since the {proj} rollout, ",
    "~Starting with the {month} cycle, ", "~Come {month}, ", "~With effect from {month}, ", "~From Q{q} on, ",
    "~Since last quarter, ", "~As of yesterday, ", "~Since the {month} offsite, ", "~As of the new fiscal year, ",
)
STOP_PRE = ("!No longer {old}: ", "!Not {old} anymore — ", "{old} is out; ", "Dropped {old}. ", "Done with {old} — ",
            "{old} no longer applies: ", "Moved on from {old}: ", "Replaced {old}: ",
    # v2.4
    "{old} is gone; ", "No more {old}. ", "{old} is history — ", "Out with {old}: ", "{old} no longer holds; ",
    "{old}? Not anymore. ", "Forget {old}: ", "Scratch {old}: ", "{old} is over — ", "{old} is old news: ",
    "Ignore {old} now — ", "{old} isn't the case anymore; ", "{old} stopped being true: ", "Gone are the days of {old}: ",
    "Not {old} any longer — ", "{old} was phased out; ", "Stopped with {old}. ", "Cross off {old}: ",
    # v2.5
    "{old} is done; ", "{old} is finished — ", "{old} is a thing of the past: ", "{old} has ended; ", "{old} ended — ",
    "{old} is behind us: ", "{old} was retired; ", "{old} is outdated: ", "{old} is obsolete — ", "{old} is stale; ",
    "{old} is no more: ", "Not {old} these days — ", "{old} was dropped: ", "Dropping {old}: ", "Say goodbye to {old}: ",
    "{old} is off the table; ", "{old} doesn't apply anymore: ", "{old} is no longer current; ", "Swap out {old}: ",
    "{old} got replaced — ", "{old} was the old setup; ", "Used to be {old}; ", "{old} is in the past: ",
    "Retire {old}: ", "{old} belongs to the past — ", "{old} is superseded: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~{old} has been discontinued; ", "~{old} no longer stands — ", "~{old} is a closed chapter: ",
    "~Past: {old}. Present: ", "~Was {old}, isn't anymore — ", "~{old} has run its course; ",
    "~{old} has been scrapped — ", "~{old} is no longer in effect: ", "~{old} was wound down: ",
    "~The {old} days are over: ", "~RIP {old} — ", "~{old} has lapsed; ", "~{old} was then, this is now: ",
    "~{old} has come to an end; ", "~Formerly {old}; ", "~{old} isn't a thing anymore — ",
    "~{old} has been sunset; ", "~Pulled the plug on {old}: ", "~{old} is water under the bridge; ",
    "~{old} was deprecated — ",
)
# v2.5: the stop cue after the new state ("…; {old} is no more")
STOP_POST = (
    "!; not {old} anymore", "!, no longer {old}", "; {old} is no more", " — {old} is over", " (not {old} anymore)",
    "; {old} is history", " — {old} was dropped", ", replacing {old}", " instead of {old}", " (was {old})",
    "; it used to be {old}", ", not {old} like before", " — {old} is done", "; {old} is out", " (no more {old})",
    ". {old} is a thing of the past", "; {old} ended", " — goodbye {old}", ", {old} no longer applies",
    ", after {old} was retired", "; {old} is old news", " — {old} is gone", ", {old} having been phased out",
    " (previously {old})", "; forget {old}", ", {old} is outdated",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ — {old} no longer stands", "~; {old} has run its course", "~ — {old} was the old arrangement",
    "~ — it was {old} until recently", "~, having dropped {old}", "~; {old} is a closed chapter",
    "~ (the {old} days are over)", "~ — RIP {old}", "~; {old} has lapsed", "~, {old} having been scrapped",
    "~ — {old} was then, this is now", "~ (moved off {old})", "~; {old} got the axe",
    "~ — {old} is water under the bridge", "~, in place of {old}", "~ (used to be {old}, not anymore)",
    "~; {old} has been sunset", "~, superseding {old}",
)
# v2.8: the bare contrast ", not {old}" was a correction cue only (0.6.0 read every held-out
# ", not {old} like before" change as contradicts); after a change cue and a later date it is a change
CONTRAST_POST = ("!, not {old}", " — not {old}", " (not {old})", ", rather than {old}", " and not {old}",
                 ", not {old} any more", "; not {old}", " — and not {old}", ", not {old} at this point",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ (rather than {old})", "~; rather than {old}", "~ — rather than {old}", "~ — not {old} at this point",
    "~, and not {old}",
)
CONTRAST_SHARE = 0.25
MARKER_PRE = ("!Update: ", "UPDATE - ", "!Heads up: ", "Change: ", "FYI, changed — ", "New info: ", "Edit: ",
              "Latest: ", "Changed as of today: ", "Revised: ",
    # v2.4
    "Updated: ", "News: ", "Status change: ", "Changelog: ", "Note — this changed: ", "PSA: ", "Just found out: ",
    "Newer info: ", "Profile update: ", "Follow-up: ", "New as of today: ", "Heads-up, changed: ", "Latest news: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Upd: ", "~Update ({month}): ", "~What's new: ", "~Quick update — ", "~Changed recently: ", "~Update to the record: ",
    "~Breaking: ", "~CHANGED: ", "~Heads up, {N} says: ", "~Fresh update: ", "~Update from {N}: ",
    "~Something changed — ", "~New development: ", "~Just changed: ",
)
IMPLICIT_POST = ("! these days", "! now", " nowadays", " currently", " at the moment", " lately", " for the time being", " at present",
    # v2.4
    " right now", " as of today", " as things stand", " for now", " this year", " these past few weeks",
    " as of late", " today", " as it stands",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ as of now", "~ now-ish", "~ as of this week", "~ these days anyway", "~ as of right now",
    "~ currently (as of {month})", "~ atm", "~ rn", "~ at the minute", "~ as we speak",
)
IMPLICIT_PRE = ("!These days, ", "!Now ", "Currently, ", "Nowadays ", "At this point, ", "Lately, ",
    # v2.4
    "Right now, ", "For now, ", "As things stand, ", "Today, ", "These past weeks, ", "Presently, ", "Of late, ",
    "This year, ", "As it stands, ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~As of now, ", "~As of right now, ", "~These days anyway, ", "~Lately though, ", "~Currently — ",
    "~At the moment, ", "~At present, ", "~Atm, ", "~As we speak, ", "~Current status: ",
)
STILL_PRE = (
    "!Still true: ", "Yes, ", "Right — ", "Correct: ", "Can confirm: ", "As before, ", "Confirmed again: ", "Reconfirmed today: ", "Nothing has changed: ",
    "Same as last time: ", "Update: no change — ", "As of {month}, still the case: ", "Double-checked: ",
    "For the record, ", "Reminder: ", "Checked in {month} — ",
    # v2.4
    "Still holds: ", "Re-verified: ", "As noted before, ", "Yep, ", "Same as before: ", "Verified with {N}: ",
    "Unchanged: ", "No news here: ", "Checked with {N} — same: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Still the same: ", "~As ever, ", "~Still accurate: ", "~Same deal as before: ", "~No update — ",
    "~Status unchanged: ", "~Reaffirmed by {N}: ", "~Re-confirmed on {wd}: ", "~Yup, still: ", "~Holds true: ",
    "~Nothing new on this: ", "~Spot-checked in {month} — same: ", "~Ditto: ", "~Still valid as of {month}: ",
)
STILL_POST = ("!, still", "! now, same as before", " — unchanged", ", as always", " (still current)", " — no change",
              " as of {month} too", ", which hasn't changed", ", confirmed again",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ — still accurate", "~, same as ever", "~ (status unchanged)", "~, still true as of {month}",
    "~ (reconfirmed on {wd})", "~, as before", "~ — still holds", "~, no change there",
)
DENY_PRE = ("!That's not right — ", "!No, ", "Wrong: ", "Not true; ", "That's incorrect. ", "{N} says that's wrong: ",
            "Disputed: ", "The note is off — ", "Nope, ", "Conflicting report: ",
    # v2.4
    "That's false — ", "Incorrect: ", "Not so: ", "{N} disputes that: ", "Doesn't match what I have: ",
    "Another source disagrees: ", "Contrary to the note, ", "Hmm, no — ", "I don't think that's right; ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~That's a mistake — ", "~Not accurate: ", "~{N} contradicts this: ", "~Nah, ", "~That doesn't sound right; ",
    "~That's not what {N} says: ", "~Can't be — ", "~Not the case: ", "~My records say otherwise: ", "~Mismatch: ",
    "~Disagree — ", "~Inaccurate: ",
)
CORRECT_PRE = ("!Correction: ", "!Actually, ", "Fixing an error: ", "Earlier note was mistaken — ", "To correct the record, ",
               "Erratum: ", "My mistake earlier, ", "The {old} entry was a typo; ", "Wrong in the notes before: ",
               "Clarification (it was never {old}): ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Corrected: ", "~Small fix: ", "~I had that wrong — ", "~Wrote {old} by mistake earlier; ", "~Actually no — ",
    "~Oops, wrong earlier: ", "~In fact, ", "~To be accurate, ", "~Earlier entry said {old} in error: ",
)
CORRECT_POST = ("! — always has been", "!; it was never {old}", ". It's always been that way.", ", not {old} as noted",
                " (the earlier note was wrong)", ", and always was", " — the {old} bit was an error",
    # v2.13 widening: "~" items are partitioned among themselves
    "~; {old} was a typo", "~ — {old} was entered by mistake", "~, and it never was {old}",
    "~. The {old} note was wrong.", "~ — has been all along", "~ (not {old}; my mistake)",
    "~ (fixed: it was never {old})",
)
NARRATIVE = (
    "{S} [be] out sick on {wd}.", "{S} mentioned a trip to {city} last {season}.", "{S} asked about the {proj} roadmap in standup.",
    "{S} gave a talk on {topic} at the all-hands.", "{S} finished the {topic} course.", "Lunch with {O} — we talked about {topic}.",
    "{P} laptop was replaced last week.", "{S} will be at the {city} offsite in {month}.", "{S} ran a half marathon in {month}.",
    "{P} favorite coffee order is an oat latte.", "{S} sent the {month} invoice to {co}.", "{S} [be] reading a book about {topic}.",
    "{S} complained that the {proj} dashboard is slow.", "{S} [have] a dentist appointment on {wd}.",
    "{S} booked a vacation to {city} for {month}.", "{S} helped onboard {N} last week.", "{S} forgot {pp} badge again on {wd}.",
    "{S} shared a great article about {topic}.", "{S} [be] hosting the team dinner in {month}.", "{S} won the {month} hackathon.",
    "{S} was late to the {wd} standup because of traffic.", "{S} now [volunteer] at a shelter on weekends.",
    "{S} switched {pp} phone to dark mode.", "{P} kid started school in {city} this fall.",
    # v2.13 widening: "~" items are partitioned among themselves
    "~{S} presented the {proj} demo to {co} on {wd}.", "~{S} spilled coffee on {pp} keyboard during the {wd} sync.",
    "~{S} whiteboarded the {proj} architecture with {N} on {wd}.",
    "~{S} [be] organizing a book swap for the team in {month}.",
    "~{S} sent everyone photos from the {season} party.", "~{S} filed a bug about the {proj} login page.",
    "~{S} asked {N} for feedback on the {proj} proposal.", "~{S} cut the {wd} retro short because of a fire drill.",
    "~{S} recommended a podcast about {topic}.", "~{S} brought donuts for the team on {wd}.",
    "~{S} missed the {month} all-hands because of a flight delay.",
    "~{S} reviewed {N}'s pull request for {proj} late on {wd}.", "~{S} [be] writing a blog post on {topic}.",
    "~{S} double-booked the {wd} design review.",
)
RELATIONS = (("sister", "f"), ("brother", "m"), ("manager", None), ("mother", "f"), ("father", "m"), ("wife", "f"),
             ("husband", "m"), ("colleague", None), ("roommate", None), ("cofounder", None), ("assistant", None), ("neighbor", None),
    # v2.4
    ("son", "m"), ("daughter", "f"), ("boss", None), ("teammate", None), ("partner", None),
    ("friend", None), ("intern", None), ("aunt", "f"), ("uncle", "m"), ("cousin", None), ("mentor", None), ("deputy", None),
    # v2.13 (not partitioned: drawn with rng.choice, so no "~" marker)
    ("stepbrother", "m"), ("stepsister", "f"), ("grandmother", "f"), ("grandfather", "m"), ("niece", "f"),
    ("nephew", "m"), ("coworker", None), ("direct report", None), ("business partner", None), ("classmate", None),
    ("flatmate", None), ("sister-in-law", "f"),
)
TOPICS = ("Kubernetes", "negotiation", "pricing strategy", "machine learning", "leadership", "Roman history", "sourdough",
          "climate tech", "UX research", "public speaking", "tax law", "jazz")

ADD_MARK = ("!Update: ", "!Heads up: ", "New info: ", "Latest: ", "FYI: ")
ADD_PRE = ("!Also: ", "Actually, ", "One more thing: ", "Adding: ", "To add, ", "Worth knowing: ", "Detail: ", "Side note: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Plus: ", "~On top of that, ", "~Additionally, ", "~Another detail: ", "~Adding to the earlier note: ",
    "~P.S. ", "~Also worth noting: ",
)
FILLER_POST = (
    " (came up during the {month} planning call)", ". Mentioned in passing during standup", ". Noted during the {proj} retro",
    ", which came up while we were sorting out the {city} trip", ". Good to keep in mind for the {month} review",
    ". Came up again on {wd}", " — worth remembering before the next sync", ". Heard this over coffee on {wd}",
    ", mentioned at the end of a long call about the {proj} budget", ". Jotted down after the {wd} check-in",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ — came up while booking the {city} offsite", "~. Mentioned while we waited for the {wd} demo to start",
    "~, which I jotted down after the {proj} kickoff", "~ (side remark in the {month} 1:1)",
    "~. Brought up over lunch on {wd}", "~ — from a hallway chat after the {proj} review",
    "~. Overheard at the {month} team dinner", "~, noted while prepping the {month} board deck",
)
NEVER_NARRATIVE = ("{S} has never been to {city}.", "{S} couldn't make the {wd} standup.", "{S} [isn't] a fan of the new {proj} dashboard.",
                   "{S} no longer [sit] near the kitchen after the desk shuffle.", "{S} didn't get the {month} newsletter.",
                   "{S} moved {pp} 1:1 with {N} to {wd} this week only.",
    # v2.13 widening: "~" items are partitioned among themselves
    "~{S} [haven't] tried the new {proj} build yet.", "~{S} didn't make it to the {month} offsite.",
    "~{S} [don't] remember the {wd} meeting at all.", "~{S} wasn't on the {proj} launch call.",
    "~{S} never got the invite for the {wd} review.",
)

# change-like words around an unchanged value (corroborates "nowsame")
NOWSAME_PRE = ("!These days, ", "!Still, ", "Now, as before, ", "To this day, ", "At this point, still ", "Even now, ",
               "Years later, still: ", "Same story today: ", "As of {month}, ", "Currently, ", "Nowadays, ", "Checked again: ",
               "Still the case in {month}: ", "Update: same as before — ", "Looked again in {month}: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~As of today, ", "~Same at present: ", "~Today, just like before, ", "~As of <YR>, ", "~As things stand now, ",
    "~Fast-forward to {month} — same: ", "~Still today: ", "~Recent check, no change — ", "~Latest from {N}: same — ",
    "~Years on, still: ",
)
NOWSAME_POST = ("! these days", "!, still", " to this day", " even now", " — that hasn't changed", " currently",
                " at the moment, same as always", ", same as back then", " now too", " — nothing new there",
                ", still as of {month}", " (no change since)", ", like before",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ as of today", "~ at present, same as before", "~ right now as well", "~ — same as it ever was", "~, still today",
    "~ (still, as of <YR>)", "~ these days too", "~ nowadays, as before", "~ — still the case today",
)
# added reason / condition / extra detail that keeps the value (elaborates "reason")
REASON_POST = (" — mostly because it suits {pp} schedule", ", mainly because of the {proj} work",
               " (at least on weekdays)", ", except during the {month} crunch", ", which works well for {po}",
               " — at least until the {proj} launch", ", and has been since the {proj} kickoff", ", mostly for the {city} trips",
               ", partly because of {topic}", ", with {N} as the backup",
               ", unless something urgent comes up", ", which {N} set up", ", except when traveling",
               " — {N} asked for it after the {month} review", ", though only while {N} is out",
    # v2.13 widening: "~" items are partitioned among themselves
    "~, mainly to keep things simple for the {proj} team", "~, except over the holidays",
    "~, as long as the {proj} contract runs", "~ (the {city} team does the same)",
    "~, mostly because of a bad experience with the alternative", "~, which saves {po} a lot of back-and-forth",
    "~, except for anything involving {co}", "~ — partly a budget decision",
    "~, at least while the {proj} migration is ongoing", "~, and {N} is looped in on it",
    "~, which {N} found works best for the team",
)
# v2.2: framing only, never the cue: always followed by a REASON_POST detail
REASON_PRE = ("Some context: ", "Why: ", "Detail worth keeping: ", "Background on this: ", "More detail: ",
              "Extra context from {N}: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Reasoning: ", "~The why behind it: ", "~For background: ", "~Rationale: ", "~Fuller picture: ",
)
# explicit denial / correction of an error, recorded long after the existing note (contradicts "laterdeny")
LATERDENY_PRE = ("!That was never true — ", "!Correction: ", "The old note was wrong — ", "Whoever wrote that got it wrong: ",
                 "No, that's a mistake: ", "Fixing an old error: ", "That earlier entry was never right; ",
                 "Setting the record straight: ", "Mistake in the old notes — ", "{old} was wrong — ", "The {old} thing was a mix-up; ",
                 "Old record is incorrect: ", "Looked into it — the note was wrong, ", "It was never {old}: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~That note was a mistake from the start — ", "~The original entry was in error: ", "~{old} was a data-entry error; ",
    "~Digging back, the old record was wrong: ", "~{old} was a misunderstanding, never true — ",
    "~Long-standing error in the notes: ", "~{old} never applied — ", "~{old}? Never — ",
    "~Revisited the file — it was never {old}; ",
)
LATERDENY_POST = (" — it's always been that way", "; it was never {old}", ", and it always has been",
                  " (the {old} note was wrong all along)", " — {old} was never right", ", not {old} — that was a mix-up",
                  "; the {old} thing was never true", " (always was, the old entry was an error)", " — never {old}, not once",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ — {old} was a data-entry error", "~ (never {old}; the old note was off)", "~; {old} never applied",
    "~ — the original {old} entry was a mistake", "~; never {old} at any point",
    "~ (it was always this — {old} was a mistake)", "~, as it always was — never {old}",
)
# subtle change cues (supersedes "subtle")
SUBTLE_PRE = ("Since {pp} promotion, ", "After the move, ", "Post-reorg: ", "New setup: ", "Going forward, ",
              "This quarter, ", "After the {month} changes, ", "Ever since the {proj} launch, ", "Fresh from the {wd} sync: ",
              "With the new org, ", "Following the handover, ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~Since the team split, ", "~After {pp} return from leave, ", "~Post-{proj}: ", "~Under the new manager, ",
    "~Following the {month} offsite, ", "~With the {proj} migration done, ", "~On the new contract, ",
    "~Since the {month} shake-up, ",
)
SUBTLE_POST = (" (new)", " after the switch", " since the {month} change", " — different from before", ", which is new",
               " for a few weeks now", " these past weeks", " (changed recently)", " going forward", " after the reshuffle",
               " since the start of the quarter", " — updated",
    # v2.13 widening: "~" items are partitioned among themselves
    "~ (recent)", "~ since the team split", "~ — a recent development", "~ post-reorg", "~ since {pp} return",
    "~ — newly so", "~ (updated in {month})", "~ since a few weeks ago",
)

SAME, LATER, LONG, OLDER, NEUTRAL, SOON, WIDE = "same", "later", "long", "older", "neutral", "soon", "wide"


@dataclass(frozen=True)
class Built:
    """One constructed pair before dating and decoration."""

    existing: str
    new: str
    when: str  # date policy
    label: str


def groups(d: Domain, label: str) -> tuple[str, ...]:
    """The family groups a domain supports for a label."""
    if label == "supersedes":
        if d.kind == "immutable":
            return ()
        if d.kind == "multi":
            return ("verb",) if (d.change or d.stop) else ()
        return ("verb", "temporal", "marker", "implicit", "nocue", "stop", "subtle")
    if label == "contradicts":
        if d.kind == "multi":
            return ("deny", "correct")
        return ("source", "deny", "correct", "older", "laterdeny") + (("later", "restate") if d.kind == "immutable" else ())
    if label == "elaborates":
        g = ("detail",) + (("reason",) if d.kind != "immutable" else ()) + (("narrow",) if d.general else ())
        g += ("contrast",)  # v2.1: one paraphrase (corroborates) vs the paraphrase + one extra detail (elaborates)
        g += ("swap",) if d.general else ()  # v2.3: the same two texts both ways (specific ↔ general)
        return g + (("also", "addplain", "addmarker") if d.kind == "multi" else ())
    if label == "corroborates":
        return ("para", "still", "nowsame") + (("general",) if d.general else ()) + (("negre",) if d.negre else ())
    if label == "unrelated":
        return ("othersubj", "othertopic", "narrative", "topicchange")
    raise ValueError(f"unknown label {label!r}")


# v2.5: how often a (label, group) is drawn relative to the label's other groups of the same slot
# (the weakest groups of the 0.4.0 model: unseen stop phrasings, change cues about another topic)
GROUP_WEIGHT: dict[tuple[str, str], int] = {("supersedes", "stop"): 2, ("unrelated", "topicchange"): 2}


def twin_ok(d: Domain) -> bool:
    """Whether the domain has twin families (same texts, later ⇒ supersedes, same/older ⇒ contradicts)."""
    return d.kind == "single"


class Builder:
    """Builds pairs for one split from the phrasings assigned to that split."""

    def __init__(self, pools: Pools, split: str, domains: tuple[Domain, ...]) -> None:
        self.p = pools
        self.rng: random.Random = pools.rng
        self.split = split
        self.domains = domains
        self._used: set[str] = set()
        self._cur: tuple[Person | None, Subj, Subj] | None = None
        lists = [getattr(d, f) for d in domains for f in ("state", "change", "stop", "neg", "elab", "general", "negre", "also")]
        generic = [ATTRIB_PRE, TEMPORAL_PRE, MARKER_PRE, IMPLICIT_PRE, STILL_PRE, DENY_PRE, CORRECT_PRE, STOP_PRE, ADD_PRE, ADD_MARK]
        self.common = common_starts(lists + generic + [NARRATIVE])

    # ------------------------------------------------------------ helpers
    def t(self, items: tuple[str, ...]) -> str:
        return choose(self.rng, items, self.split)

    def glob(self) -> dict[str, str]:
        r = self.rng
        return {"month": r.choice(MONTHS), "q": str(r.randint(1, 4)), "yr": str(r.randint(2019, 2026)),
                "wd": r.choice(WEEKDAYS), "N": self.p.person().first, "city": self.p.city(),
                "season": r.choice(("spring", "summer", "fall", "winter")), "topic": r.choice(TOPICS),
                "proj": self.p.codename(), "co": self.p.company()}

    def subjects(self, c: Ctx) -> tuple[Subj, Subj]:
        """Same subject, referred to independently on each side."""
        assert c.person is not None
        r = self.rng.random()
        if r < 0.5:
            e = named(c.person, "first" if self.rng.random() < 0.8 else "full")
            n = named(c.person, self.rng.choice(("first", "first", "first", "pron", "full")))
        else:
            forms = ("the user", "User", "I", "the user", "User")
            e = user(c.person, self.rng.choice(forms))
            n = user(c.person, self.rng.choice(forms + ("pron",)))
        return e, n

    def other_subject(self, c: Ctx, se: Subj) -> Subj:
        """Another person in the same frame: a relative/colleague of the subject, or another named person."""
        if self.rng.random() < 0.65 or se.S in ("the user", "User", "I"):
            rel, g = self.rng.choice(RELATIONS)
            g = g or self.rng.choice("fm")
            owner = se if se.first or c.person is None or self.rng.random() < 0.5 else named(c.person, "pron")
            sub = relative(owner, rel, g)
            if rel in ("colleague", "manager", "neighbor", "roommate", "teammate", "friend", "mentor") and self.rng.random() < 0.4:
                other = self.p.person()
                sub = third(f"{owner.P} {rel} {other.first}", other.gender)
            return sub
        o = self.p.other_person(c.person) if c.person else self.p.person()
        return third(o.first, o.gender)

    def state(self, d: Domain, ctx: dict[str, str], s: Subj, avoid: str | None = None) -> tuple[str, str]:
        """A rendered state assertion and its template."""
        for _ in range(4):
            tpl = self.t(d.state)
            if tpl != avoid:
                break
        return render(tpl, ctx, s), tpl

    def same_info(self, d: Domain, ctx: dict[str, str], s: Subj, etpl: str) -> str:
        """A paraphrase that mentions nothing the existing template did not (corroborates adds no information)."""
        known = set(_KEY.findall(etpl)) | {"S", "P", "O", "pr", "pp", "po"}
        ok = [t for t in part_of(d.state, self.split) if t != etpl and set(_KEY.findall(t)) <= known]
        return render(self.rng.choice(ok) if ok else etpl, ctx, s)

    # ------------------------------------------------------------ constructions
    def build(self, d: Domain, label: str, group: str) -> list[Built]:
        """Build the pair(s) of one family; either side may get a second clause about another slot."""
        self._used = {d.slot}
        self._cur = None
        out = self._build(d, label, group)
        if self._cur is None or self._cur[0] is None:
            return out
        person, se, sn = self._cur
        res = []
        ex: dict[str, str] = {}  # pairs of one family that share an existing text keep sharing it
        for b in out:
            e, n = b.existing, b.new
            if e in ex:
                e = ex[e]
            else:
                ex[e] = e = self.compound(e, person, se) if self.rng.random() < 0.12 else e
            if b.label in ("supersedes", "contradicts", "unrelated") and self.rng.random() < 0.1:
                n = self.compound(n, person, sn)
            if b.label == "unrelated" and group != "narrative" and self.rng.random() < 0.15 and ":" not in n[:30] and "?" not in n:
                # "Update:" / "These days" on another person's or another topic's news is no change of e
                n = render(self.t(MARKER_PRE + IMPLICIT_PRE), self.glob(), sn) + " " + lower_first(n, self.common)
            res.append(Built(e, n, b.when, b.label))
        return res

    def compound(self, text: str, person: Person, s: Subj) -> str:
        """Append a clause about another slot of the same subject ("…; she also prefers Slack")."""
        if "?" in text:
            return text
        options = [x for x in self.domains if x.slot not in self._used and x.person_subject]
        od = self.rng.choice(options)
        oc = od.sample(self.p)
        pron = Subj(s.pr, s.pp, s.po, s.pr, s.pp, s.po, first=s.first) if s.S not in ("the user", "User") or self.rng.random() < 0.5 else s
        clause = render(self.t(od.state), {**self.glob(), **oc.a()}, pron)
        if not clause.lower().startswith((pron.S.lower() + " ", pron.P.lower() + " ")):
            return text  # only clauses that open with the subject read naturally
        joiner = self.rng.choice(("; ", ", and ", ". ", " — "))
        body = clause if joiner == ". " or s.first and clause.startswith("I ") else lower_first(clause, self.common | {pron.S.lower()})
        return text.rstrip(".") + joiner + body

    def _build(self, d: Domain, label: str, group: str) -> list[Built]:
        rng = self.rng
        c = d.sample(self.p)
        g = self.glob()
        se, sn = self.subjects(c) if c.person else (user(self.p.person(), "User"),) * 2
        if d.person_subject:
            self._cur = (c.person, se, sn)
        elif c.person is not None:
            self._cur = (c.person, named(c.person, "first"), named(c.person, "pron"))
        A, B = {**g, **c.a()}, {**g, **c.b()}
        e, etpl = self.state(d, A, se)
        if d.change and d.kind == "single" and rng.random() < 0.15:
            pc = d.sample(self.p)
            prev = pc.b()
            if prev["old"] != A["v"] and (d.free_values or pc.base == c.base):
                ectx = {**A, **{k: v for k, v in prev.items() if k.startswith("old")}}
                ectx["old"] = prev["v"] if prev["v"] != A["v"] else prev["old"]
                e = render(self.t(d.change), ectx, se)
        R = render

        def new_state(ctx: dict[str, str], same_tpl_p: float = 0.0) -> str:
            if rng.random() < same_tpl_p:
                return R(etpl, ctx, sn)
            return self.state(d, ctx, sn, avoid=etpl)[0]

        def pre(prefixes: tuple[str, ...], text: str, ctx: dict[str, str]) -> str:
            p = R(self.t(prefixes), ctx, sn)
            return f"{p} {lower_first(text, self.common)}"

        def post(suffixes: tuple[str, ...], text: str, ctx: dict[str, str]) -> str:
            if "?" in text:  # question–answer shapes take no trailing cue
                return text
            sfx = R("x" + self.t(suffixes), ctx, sn)[1:]
            return text.rstrip(".") + sfx + ("" if sfx.endswith((".", "!", "?")) else ".")

        if label == "supersedes":
            if group == "verb":
                tpl = self.t(d.change + d.stop) if d.kind == "multi" else self.t(d.change)
                ctx = B if d.kind != "multi" else {**A, "old": A["v"]}
                return [Built(e, R(tpl, ctx, sn), LATER, label)]
            if group == "stop":
                if d.stop and rng.random() < 0.5:
                    return [Built(e, R(self.t(d.stop), B, sn), LATER, label)]
                s = new_state(B, 0.3)
                n = pre(STOP_PRE, s, B) if rng.random() < 0.6 or "?" in s else post(STOP_POST, s, B)
                return [Built(e, n, LATER, label)]
            def contrast(n: str) -> str:  # ", not {old}" on some changes of a single value
                return post(CONTRAST_POST, n, B) if d.kind != "multi" and rng.random() < CONTRAST_SHARE else n

            if group == "temporal":
                s = new_state(B, 0.3)
                n = pre(TEMPORAL_PRE, s, B) if rng.random() < 0.75 else post(("! starting {month}", "! as of {month}", " since the reorg", " since {month}", " from {month} on", " effective next week"), s, B)
                return [Built(e, contrast(n), LATER, label)]
            if group == "marker":
                return [Built(e, contrast(pre(MARKER_PRE, new_state(B, 0.4), B)), LATER, label)]
            if group == "implicit":
                s = new_state(B, 0.3)
                n = post(IMPLICIT_POST, s, B) if rng.random() < 0.55 else pre(IMPLICIT_PRE, s, B)
                return [Built(e, contrast(n), LATER, label)]
            if group == "nocue":
                return [Built(e, new_state(B, 0.4), LONG, label)]
            if group == "subtle":
                s = new_state(B, 0.2)
                n = pre(SUBTLE_PRE, s, B) if rng.random() < 0.45 or "?" in s else post(SUBTLE_POST, s, B)
                return [Built(e, n, LATER if rng.random() < 0.5 else LONG, label)]
        if label == "contradicts":
            if group == "source":
                return [Built(e, new_state(B, 0.5), SAME, label)]
            if group == "deny":
                if d.neg and rng.random() < 0.6:
                    n = R(self.t(d.neg), B, sn)
                else:
                    n = pre(DENY_PRE, new_state(B, 0.3), B)
                return [Built(e, n, SOON, label)]
            if group == "correct":
                s = new_state(B, 0.3)
                n = pre(CORRECT_PRE, s, B) if rng.random() < 0.6 else post(CORRECT_POST, s, B)
                if d.kind == "multi" and "{old}" not in n:
                    n = post(CORRECT_POST[:0] + ("!, not {old}", " — not {old}", ", not {old} as noted"), n, B)
                return [Built(e, n, SOON, label)]
            if group == "older":
                s = new_state(B, 0.4)
                if d.change and rng.random() < 0.15:
                    s = R(self.t(d.change), B, sn)
                return [Built(e, s, OLDER, label)]
            if group == "laterdeny":  # the new record is later, but it denies or corrects, it does not report a change
                s = new_state(B, 0.3)
                n = pre(LATERDENY_PRE, s, B) if rng.random() < 0.55 or "?" in s else post(LATERDENY_POST, s, B)
                return [Built(e, n, LONG, label)]
            if group == "later":  # immutable slot: a later record with another value is still a conflict
                return [Built(e, new_state(B, 0.4), LONG if rng.random() < 0.7 else LATER, label)]
            if group == "restate":  # v2.1: plain restatement of another immutable value, no denial words, later
                return [Built(e, new_state(B, 0.6), LONG, label)]
        if label == "elaborates":
            if group == "detail":
                n = R(self.t(d.elab), A, sn)
                if rng.random() < 0.2:
                    n = pre(ADD_PRE, n, A)
                return [Built(e, n, self.mixed(), label)]
            if group == "reason":  # the same value plus a reason, condition or extra detail, often much later
                s = new_state(A, 0.15) if rng.random() < 0.7 else R(self.t(d.elab), A, sn)
                if "?" in s:  # a question–answer shape takes no trailing detail: the domain's own elaboration
                    s = R(self.t(d.elab), A, sn)
                n = post(REASON_POST, s, A)  # v2.2: a real detail every time (a framing prefix alone adds nothing)
                if rng.random() < 0.2:
                    n = pre(REASON_PRE, n, A)
                if rng.random() < 0.3:
                    n = pre(NOWSAME_PRE, n, A) if not n[:12].count(":") else n
                return [Built(e, n, WIDE, label)]
            if group == "narrow":
                eg = R(self.t(d.general), A, se)
                n = R(self.t(d.elab), A, sn) if rng.random() < 0.3 else self.state(d, A, sn)[0]
                return [Built(eg, n, NEUTRAL, label)]
            if group == "swap":  # v2.3: specific → general is corroborates; the very same texts swapped, elaborates
                known = set(_KEY.findall(etpl)) | set(c.A) | {"S", "P", "O", "pr", "pp", "po"}
                ok = [t for t in part_of(d.general, self.split) if set(_KEY.findall(t)) <= known]
                if not ok:
                    return []
                gtpl = rng.choice(ok)
                when = NEUTRAL
                return [Built(R(etpl, A, se), R(gtpl, A, sn), when, "corroborates"),
                        Built(R(gtpl, A, se), R(etpl, A, sn), when, label)]
            if group == "contrast":  # same existing text: paraphrase ⇒ corroborates, paraphrase + one detail ⇒ elaborates
                p = self.same_info(d, A, sn, etpl)
                if "?" in p or rng.random() < 0.35:
                    more = R(self.t(d.elab), A, sn)
                else:
                    more = post(REASON_POST, p, A)
                when = self.mixed()
                return [Built(e, p, when, "corroborates"), Built(e, more, when, label)]
            C = {**g, **c.c()}
            if group == "also":
                return [Built(e, R(self.t(d.also), C, sn), NEUTRAL, label)]
            if group == "addplain":
                return [Built(e, new_state(C, 0.5), NEUTRAL, label)]
            if group == "addmarker":
                s = new_state(C, 0.3)
                n = pre(ADD_MARK + ADD_PRE, s, C) if rng.random() < 0.6 else post(IMPLICIT_POST[:2] + (" too", " as well"), s, C)
                return [Built(e, n, NEUTRAL, label)]
        if label == "corroborates":
            if group == "para":
                return [Built(e, self.same_info(d, A, sn, etpl), self.mixed(), label)]
            if group == "still":
                s = self.same_info(d, A, sn, etpl)
                n = pre(STILL_PRE, s, A) if rng.random() < 0.5 else post(STILL_POST, s, A)
                return [Built(e, n, NEUTRAL, label)]
            if group == "nowsame":  # change-like words, long gap, other wording, same value
                s = self.same_info(d, A, sn, etpl)
                n = pre(NOWSAME_PRE, s, A) if rng.random() < 0.5 or "?" in s else post(NOWSAME_POST, s, A)
                return [Built(e, n, WIDE if rng.random() < 0.5 else LONG, label)]
            if group == "general":
                # a less specific restatement may only use what the existing text said
                known = set(_KEY.findall(etpl)) | set(c.A) | {"S", "P", "O", "pr", "pp", "po"}
                ok = [t for t in part_of(d.general, self.split) if set(_KEY.findall(t)) <= known]
                n = R(rng.choice(ok), A, sn) if ok else new_state(A)
                return [Built(e, n, NEUTRAL, label)]
            if group == "negre":
                return [Built(e, R(self.t(d.negre), A, sn), NEUTRAL, label)]
        if label == "unrelated":
            if group == "othersubj":
                if d.person_subject:
                    so = self.other_subject(c, se)
                    ctx = B if rng.random() < 0.5 else A
                    x = rng.random()
                    if (d.change or d.stop) and x < 0.35:
                        n = R(self.t(d.change + d.stop), B if d.kind != "multi" else {**A, "old": A["v"]}, so)
                    elif x < 0.5 and (plain := tuple(t for t in d.neg if not _DISPUTE.search(t))):
                        n = R(rng.choice(plain), {**B, "old": A["v"]}, so)
                    else:
                        n = self.state(d, ctx, so, avoid=etpl)[0] if rng.random() < 0.5 else R(etpl, ctx, so)
                    return [Built(e, n, self.mixed(), label)]
                ob = c.other_base or {**c.base}
                octx = {**B, **ob} if rng.random() < 0.5 else {**A, **ob}
                if d.change and rng.random() < 0.35:
                    n = R(self.t(d.change), {**B, **ob, "old": self.p.person().first}, sn)
                else:
                    n = R(etpl, octx, sn) if rng.random() < 0.5 else self.state(d, octx, sn)[0]
                if n == e:
                    return []
                return [Built(e, n, self.mixed(), label)]
            if group == "othertopic":
                od = rng.choice([x for x in self.domains if topic(x.slot) != topic(d.slot) and x.person_subject])
                self._used.add(od.slot)
                oc = od.sample(self.p)
                person = c.person
                oc.person = person
                octx = {**self.glob(), **oc.a()}
                x = rng.random()
                if (od.change or od.stop) and od.kind != "multi" and x < 0.3:
                    n = R(self.t(od.change + od.stop), {**self.glob(), **oc.b()}, sn)
                elif od.neg and x < 0.45:
                    n = R(self.t(od.neg), {**self.glob(), **oc.b()}, sn)
                else:
                    n = self.state(od, octx, sn)[0]
                if not d.person_subject and person is not None:
                    n = self.state(od, octx, named(person, "first"))[0]
                return [Built(e, n, self.mixed(), label)]
            if group == "topicchange":  # v2.1: same subject, another topic, change cue on the other (changeable) slot, long gap
                od = rng.choice([x for x in self.domains if topic(x.slot) != topic(d.slot) and x.person_subject and x.kind != "immutable"])
                self._used.add(od.slot)
                oc = od.sample(self.p)
                oc.person = c.person
                s = sn if d.person_subject or c.person is None else named(c.person, rng.choice(("first", "first", "full")))
                octx = {**self.glob(), **oc.b()}
                x = rng.random()
                if (od.change or od.stop) and od.kind != "multi" and x < 0.4:
                    n = R(self.t(od.change + od.stop), octx, s)
                elif x < 0.55 and od.kind != "multi":  # v2.5: a generic stop cue about the other slot's old value
                    st = self.state(od, octx, s)[0]
                    n = pre(STOP_PRE, st, octx) if rng.random() < 0.6 or "?" in st else post(STOP_POST, st, octx)
                elif x < 0.75:
                    st = self.state(od, octx, s)[0]
                    n = pre(TEMPORAL_PRE + MARKER_PRE + IMPLICIT_PRE, st, octx) if "?" not in st else st
                else:
                    st = self.state(od, octx, s)[0]
                    n = post(IMPLICIT_POST, st, octx)
                # v2.5: drawn twice as often, so 40% take the mixed dates (same day / older too) to keep unrelated's date mix
                return [Built(e, n, LONG if rng.random() < 0.6 else self.mixed(), label)]
            if group == "narrative":
                s = sn if d.person_subject or c.person is None else named(c.person, "first")
                return [Built(e, R(self.t(NARRATIVE), {**g, **c.extra}, s), NEUTRAL, label)]
        if group == "twin":
            n = new_state(B, 0.5)
            return [Built(e, n, LONG, "supersedes"), Built(e, n, SAME if rng.random() < 0.6 else OLDER, "contradicts")]
        raise ValueError(f"no construction for {d.slot}.{label}.{group}")

    # ------------------------------------------------------------ dates and decoration
    def mixed(self) -> str:
        """Date policy for non-conflicts that must not read gap + rewording as a change: half wide gaps."""
        return WIDE if self.rng.random() < 0.45 else NEUTRAL

    def dates(self, when: str, max_gap_days: int | None = None) -> tuple[dt.date, dt.date]:
        r = self.rng
        if when == WIDE:  # non-conflicts with mostly long gaps
            x = r.random()
            when = SAME if x < 0.2 else (OLDER if x < 0.3 else LONG)
        if when == NEUTRAL:
            x = r.random()
            when = SAME if x < 0.3 else (OLDER if x < 0.42 else LATER)
        if when == SAME:
            gap = 0
        elif when == OLDER:
            gap = -r.randint(1, 700)
        elif when == SOON:
            x = r.random()
            gap = 0 if x < 0.4 else (r.randint(1, 60) if x < 0.75 else r.randint(61, 900))
        elif when == LONG:
            gap = r.randint(14, 180) if r.random() < 0.5 else r.randint(181, 900)
        else:
            x = r.random()
            gap = r.randint(1, 30) if x < 0.35 else (r.randint(31, 365) if x < 0.7 else r.randint(366, 1400))
        if max_gap_days is not None and abs(gap) > max_gap_days:
            gap = r.randint(1, max_gap_days) * (1 if gap > 0 else -1)
        lo, hi = dt.date(2018, 6, 1), dt.date(2026, 11, 30)
        span = (hi - lo).days - abs(gap)
        te = lo + dt.timedelta(days=r.randint(0, span) + max(0, -gap))
        return te, te + dt.timedelta(days=gap)

    def decorate(self, text: str, p_attr: float) -> str:
        r = self.rng
        if r.random() < p_attr:
            ctx = self.glob()
            nobody = user(self.p.person(), "User")
            lead = " ".join(text.split()[:5])
            if r.random() < 0.5 and not any(ch in lead for ch in ":—?"):
                pfx = render(self.t(ATTRIB_PRE), ctx, nobody)
                text = f"{pfx} {lower_first(text, self.common)}"
            else:
                sfx = render("x" + self.t(ATTRIB_POST), ctx, nobody)[1:]
                end = "." if text.endswith(".") else ""
                text = text.rstrip(".") + sfx + end
        if r.random() < 0.12 and "?" not in text:
            sfx = render("x" + self.t(FILLER_POST), self.glob(), user(self.p.person(), "User"))[1:]
            text = text.rstrip(".") + sfx + "."
        text = augment(text, r, self.split, self.common, {"topic": r.choice(TOPICS), "N": self.p.person().first})
        if r.random() < 0.3:
            text = contract(text)
        x = r.random()
        if x < 0.08:
            text = text.lower()
        elif x < 0.3:
            text = text.rstrip(".")
        if r.random() < 0.04:
            text = r.choice(("Note: ", "- ", "Memory: ", "* ")) + text
        return _tidy(text)


_KEY = re.compile(r"\{(\w+)\}")
_DISPUTE = re.compile(r"wrong|not right|That's|typo|whatever|Actually|belongs to someone", re.IGNORECASE)
TOPICS_OF: dict[str, str] = {
    "channel": "comms", "verbosity": "comms", "format": "comms", "formality": "comms", "language": "comms",
    "schedule": "calendar", "meeting_time": "calendar", "out_of_office": "calendar", "timezone": "place", "office": "place",
    "reporting_line": "org", "role": "org", "teams": "org", "diet": "food", "allergies": "food",
    "family": "family", "children": "family", "birthday": "bio", "birthplace": "bio", "citizenship": "bio",
    "graduation_year": "bio", "high_school": "bio", "wedding_date": "family", "approval_limit": "money", "budget": "money",
    "hobbies": "leisure", "instruments": "leisure", "languages_spoken": "langs", "native_language": "langs",
}


def topic(slot: str) -> str:
    """The coarse topic of a slot: "other topic" hard negatives come from another topic."""
    return TOPICS_OF.get(slot, slot)


_CONTRACT = (
    (re.compile(r"\b([Ss]he|[Hh]e|[Ii]t|[Tt]hat|[Tt]here|[Ww]ho|[Ww]hat) is\b"), r"\1's"),
    (re.compile(r"\bI am\b"), "I'm"),
    (re.compile(r"\b([Ss]he|[Hh]e|I|[Ww]e) (has|have) (been|got|never|moved|switched|started)\b"),
     lambda m: f"{m.group(1)}'{'s' if m.group(2) == 'has' else 've'} {m.group(3)}"),
    (re.compile(r"\bis not\b"), "isn't"),
    (re.compile(r"\bdoes not\b"), "doesn't"),
    (re.compile(r"\bdo not\b"), "don't"),
)


def contract(text: str) -> str:
    """Informal contractions ("she is" → "she's", "I am" → "I'm")."""
    for rx, rep in _CONTRACT:
        text = rx.sub(rep, text)
    return text


_DOTS = re.compile(r"\.{2,}(?=\s|$)|\.(?=[,;])")


def _tidy(text: str) -> str:
    """Collapse doubled punctuation left by joining clauses ("s.r.l..", "way..")."""
    return _DOTS.sub(".", text).replace(".,", ",").replace(".;", ";")
