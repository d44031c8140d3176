"""Where a correction names the value it replaces, by the shape of the English around it.

A correction names its old value in a few places: after a verb of ending ("we moved off X",
"scrap X", "stopped using X"), before a passive one ("X has been replaced", "X was dropped"), after
"from" in a change ("switched from X to Y", "up from X"), as the earlier value ("it used to be X",
"(previously X)", "formerly X"), as what was said in error or withdrawn ("X was wrong", "ignore what
I said about X", "I wrote X by mistake"), as a lapsed state ("X isn't allowed anymore", "not X
anymore", "no longer X"), or as a question answered no ("X? No, Y"). Contrasts ("Y, not X",
"instead of X") are split by ``statements.split_contrast``; :func:`stands` says where they count.

A frame counts only where the statement makes the change: never in a question, and a verb of
ending not under a modal, a plan, a condition or a negation ("we might drop X", "if we drop X",
"Argo didn't replace Jenkins" propose or deny a change). Everything here is a pure function of the
text; ``reverie.statements`` cleans the phrases (``replaced``) and reads the rest.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from reverie.lapses import NOT_A_RIVAL, lapses

_I = re.IGNORECASE
#: A colon or a dot between digits ends no clause: "9:30", "16:9" and "3.11" are one value.
_COLON = r"(?<!\d):(?!//)|:(?!\d|//)"  # nor does a URL's "://" (s3://bucket)
_STOP = rf"[;!?()\u2014\u2013]|{_COLON}|(?<!\d),|,(?!\d)|\.(?!(?-i:[a-z0-9]))|\s-\s"  # a clause ends here ("5,000" ends none)
_START = rf"(?:^|(?:[,;!?(\u2014\u2013]|{_COLON}|\.(?!\d))\s*|\b(?:and|but|so|because|since|now\s+that)\s+)"
#: A dot inside a name ("prod.example.com", "v2.3"): before a lower-case letter or a digit, never a
#: sentence's end ("12.The" is two sentences missing a space).
_INNER_DOT = r"(?<=\w)\.(?=(?-i:[a-z0-9]))"
#: The most characters an old value may take: a bound keeps every lazy scan for its end short, so a
#: long text without punctuation reads in linear time (the longest gold old value is 36 characters).
_MOST = 120
#: Words that follow an old value without belonging to it: the new value, a time, a new clause.
_AFTER = (r"in\s+favou?r\s+of|for|with|by|to|into|since|last|this|because|as|like|after|before|and|but|so"
          r"|which|that|when|until|from|then|now|anymore|any\s*more|any\s+longer|ago|years|months|weeks"
          r"|in\s+(?:\d{4}|january|february|march|april|may|june|july|august|september|october|november"
          r"|december|q[1-4])")
_END = rf"(?=\s*(?:$|{_STOP})|\s+(?:{_AFTER})\b)"
_OLD = (rf"(?!(?:{_AFTER}|in|on|at|yesterday|today|early|recently|again|long\s+ago"
        r"|a\s+(?:long\s+time|while|few|couple|year|month|week|day))\b)"
        rf"(?P<old>(?:[^,;.!?()\u2014\u2013]|(?<=\d)[.,](?=\d)|{_INNER_DOT}){{1,{_MOST}}}?)")
_SUBJECT = rf"(?P<old>(?:[^,;:.!?()\u2014\u2013]|(?<=\d)[.:](?=\d)|:(?=//)){{1,{_MOST}}}?)"
_NUMBER = (r"(?P<old>(?:\d|one\b|two\b|three\b|four\b|five\b|six\b|seven\b|eight\b|nine\b|ten\b|twelve\b|twenty\b"
           rf"|thirty\b|fifty\b|a\s+hundred\b)(?:[^,;.!?()]|(?<=\d)[.,](?=\d)){{0,{_MOST}}}?)")
_SPAN = rf"(?:[^,;.!?()]|{_INNER_DOT}){{1,{_MOST}}}?"  # the words between two frame words ("to X from", "took over X from")
_NAME = r"(?-i:[A-Z0-9])[\w.+-]*"  # a capitalised word or a number: a named thing, not a role
_LIGHT_GERUNDS = r"(?:using|doing|sending|writing|giving|putting|adding|including|making|running|going\s+to|attending|having)"
_ENDED = (r"replaced|superseded|supplanted|swapped(?:\s+out)?|retired|deprecated|dropped(?!\s+off)|scrapped|ditched"
          r"|abandoned|decommissioned|sunset|sunsetted|phased\s+out|shut\s+down|ripped\s+out|torn\s+out|lifted"
          r"|abolished|discontinued|removed|renamed|broken\s+up|axed|retracted|withdrawn")
_PASSIVE = (r"(?:has\s+been|have\s+been|had\s+been|'s\s+been|'ve\s+been|was|were|got|is\s+being|are\s+being)\s+"
            r"(?:(?:now|just|finally|officially|quietly|already|recently|fully|completely|mostly|largely|formally)\s+)?")
_SHIFT = (r"switch(?:ed|ing)?|chang(?:e|ed|ing)|mov(?:e|ed|ing)|went|gone|upgraded|downgraded|migrated|raised|lowered"
          r"|bumped|cut|reduced|increased|decreased|rescheduled|pushed|shifted|flipped|renamed|converted|ported"
          r"|transitioned|passed|extended|shortened|tightened|loosened|doubled|halved")
_LEFT = r"switched|moved|migrated|raised|lowered|reduced|bumped|changed|upgraded|downgraded"  # "from X" alone: X is left
_SAID = r"(?:said|wrote|mentioned|told\s+you|asked\s+for|asked|gave\s+you|gave|quoted|posted|suggested|requested)"
_ENDING = (r"threw\s+out|thrown\s+out|throw\s+out|tossed(?:\s+out)?|scrap(?:ped|ping)?|ditch(?:ed|ing)?|abandon(?:ed|ing)?"
           r"|abolish(?:ed|ing)?|retir(?:e|ed|ing)|deprecat(?:e|ed|ing)|decommission(?:ed|ing)?"
           r"|phas(?:e|ed|ing)\s+out|rip(?:ped)?\s+out|(?:got|get|getting)\s+rid\s+of|gone\s+off"
           r"|(?:mov|migrat)(?:e|ed|ing)\s+(?:off|away\s+from)|(?:drop(?:ped)?|end(?:ed)?)\s+support\s+for"
           r"|lift(?:ed)?(?=\s+the\s+(?:[\w-]+\s+){0,3}?(?:ban|freeze|restriction|limit|cap|moratorium)\b)")
#: What one hands over for good: ownership or a role ("handed the payments on-call to Sofia").
_ROLE = (r"(?:ownership|on-?call|roles?|duties|duty|responsibilit(?:y|ies)|reins|lead|leadership|management"
         r"|rotation)")
#: Words that make a hand-over a loan: "for the weekend", "while", "until Monday".
_WHILE = (r"(?:for\s+the\s+(?:weekend|week|day|night|evening|holidays?)|for\s+(?:now|a\s+(?:while|bit|week|day))"
          r"|while|during|until|till|temporarily|this\s+(?:week|weekend|sprint|month)|tonight|today)")


@dataclass(frozen=True)
class Frame:
    """One wording of a correction and where it names the old value: its ``old`` group, or, for a
    ``subject`` frame, the clause's words before the match ("Sentry | has been replaced by ...")."""

    pattern: re.Pattern[str]
    subject: bool = False
    refuse: re.Pattern[str] | None = None  # a subject that makes the wording no correction ("I replaced ...")
    needs: str = ""  # a word the text must hold: a cheap test before the pattern


def _frame(pattern: str, *, subject: bool = False, refuse: str | None = None, needs: str = "") -> Frame:
    return Frame(re.compile(pattern, _I), subject, re.compile(refuse, _I) if refuse else None, needs)


_PERSONAL = r"^(?:i|we|you|they|he|she|nobody|no\s+one|nothing)\b"
#: One token that names a value: with a digit or a path's, URL's or identifier's punctuation (``12.4``,
#: ``gs://bucket``, ``g2-standard-48``, ``snake_case``), or capitalised (``Postgres``).
_VALUE_TOKEN = r"(?:[\w.+-]*\d(?:[\w.:/@#+-]*[\w/])?|[\w-]+(?:://|[/_.:])[\w.:/@#+-]*\w|(?-i:[A-Z])[\w.+-]*\w)"
_NOT_A_VALUE = rf"^(?!(?:(?:the|our|my|a|an)\s+)?{_VALUE_TOKEN}(?:\s+[\w-]+){{0,2}}$)"
_NOT_A_NAME = rf"^(?!(?:{_NAME}(?:\s+|$))+$)|^(?:this|that|it|he|she|they|we|i|there|here|which|what|who)\b"

#: A verb of ending or of change names the old value. Guarded: never under a hedge or a negation.
ENDING = (
    _frame(rf"\b(?:stop(?:ped|s)?|quit(?:s)?|cease[sd]?)\s+{_LIGHT_GERUNDS}\s+{_OLD}{_END}"),
    _frame(rf"\bstopped\s+(?!{_LIGHT_GERUNDS}\b)(?P<old>\w+ing\b(?:[^,;.!?()\u2014\u2013]|{_INNER_DOT}){{0,{_MOST}}}?){_END}",
           needs="stopped"),
    _frame(rf"\b(?:gave|given|give|giving)\s+up\s+(?:on\s+)?{_OLD}{_END}", needs="up"),
    _frame(rf"\b(?:{_ENDING})\s+(?:the\s+rule\s+that\s+)?{_OLD}{_END}"),
    _frame(rf"\b(?:drop(?:ped|ping)?|swap(?:ped|ping)?|trad(?:e|ed|ing)|ditch(?:ed|ing)?|abandon(?:ed|ing)?)\s+{_OLD}"
           r"\s+(?:in\s+favou?r\s+of|for)\b"),
    _frame(rf"\b(?:drop|ditch)\s+(?:the\s+)?{_OLD}(?=$|[,;:!?()]|\.(?!\d))"),
    _frame(rf"\breplac(?:e|ed|ing)\s+{_OLD}\s+(?:with|by)\b", needs="replac"),
    # "replaces X with Y" in the present is a mechanism ("sed replaces foo with bar"); "Vite replaces Webpack" is not
    _frame(rf"\b(?:replaced|replaces(?![^,;.!?()]{{0,{_MOST}}}?\s(?:with|by)\b)|supersed(?:es|ed)|supplant(?:s|ed))\s+"
           rf"{_OLD}{_END}", refuse=_PERSONAL),
    _frame(rf"\b(?:replacing|(?:which|that)\s+(?:replaces|replaced|ends)|supersed(?:es|ed|ing)|supplant(?:s|ed|ing)"
           rf"|put\s+an\s+end\s+to|marks?\s+the\s+end\s+of)\s+{_OLD}{_END}"),
    _frame(rf"(?<!\s)\s+{_PASSIVE}(?:{_ENDED})\b", subject=True),
    _frame(r"(?<!\s)\s+(?:has\s+|have\s+)?(?:given\s+way\s+to|gave\s+way\s+to|made\s+way\s+for|stepped\s+(?:down|away)"
           r"|resigned)\b", subject=True),
    _frame(rf"\b(?:pulled|pull)\s+the\s+plug\s+on\s+{_OLD}{_END}", needs="plug"),
    _frame(rf"\b(?:took|taken|takes)\s+(?:over\s+)?the\s+place\s+of\s+{_OLD}{_END}", needs="place"),
    # handing over ownership or a role, not an object lent for a while ("handed the pager to Bob for the weekend")
    _frame(rf"(?<!\s)\s+handed\s+(?:over|off|(?:[\w-]+\s+){{0,3}}?{_ROLE}\b(?:{_SPAN})?\s+(?:over\s+)?to)\b"
           rf"(?![^,;.!?]{{0,{_MOST}}}?\b{_WHILE}\b)", subject=True, needs="handed"),
    # "Version 2.0 is out", "the PR is closed" and "the logs are gone after seven days" put nothing out of force
    _frame(r"(?:(?<!\s)\s+(?:is|are)|'s|'re)\s+(?:now\s+)?(?:retired|deprecated|obsolete|history|decommissioned"
           r"|(?<=now\s)read-only|read-only(?=\s+now\b)|dead\s+to\s+(?:me|us)|a\s+thing\s+of\s+the\s+past|no\s+more"
           rf"|gone(?:\s+from\s+(?:the\s+)?[\w-]+)?(?=\s*(?:$|{_STOP})|\s+(?:now|for\s+good)\b))\b(?:\s+now)?",
           subject=True),
    _frame(r"\bafter\s+(?P<old>(?-i:[A-Z])[\w'-]*)\s+(?:left|quit|moved\s+teams|moved\s+on|stepped\s+down|retired"
           r"|resigned)\b", needs="after"),
    _frame(rf"\b(?:took|taken|take|taking)\s+over\s+(?:{_SPAN}\s+)?from\s+{_OLD}{_END}", needs="over"),
    _frame(rf"\b(?:{_SHIFT})\s+(?:[\w-]+\s+){{0,3}}?from\s+(?P<old>(?:[^,;.!?()]|(?<=\d)[.,:](?=\d)){{1,{_MOST}}}?)"
           r"\s+(?:to|into)\b", needs="from"),
    _frame(rf"\b(?:{_LEFT})\s+(?:[\w-]+\s+){{0,3}}?from\s+{_OLD}{_END}", needs="from"),
    _frame(rf"\b(?:{_SHIFT}|went\s+(?:up|down)|got\s+moved)\s+(?:[\w-]+\s+){{0,4}}?to\s+{_SPAN}\s+from\s+{_OLD}"
           rf"{_END}", needs="from"),
    _frame(rf"{_START}to\s+{_SPAN}\s+from\s+{_OLD}{_END}", needs="from"),
)

#: The old value named as earlier, wrong, withdrawn or over. Not read in a question.
EARLIER = (
    _frame(rf"\bused\s+to\s+(?:be\s+)?{_OLD}{_END}", needs="used"),
    _frame(rf"\(\s*(?:it\s+)?(?:previously|formerly|before|was|were|used\s+to\s+be|prev\.?)\s*:?\s+{_SUBJECT}\s*\)",
           needs="("),
    _frame(rf"{_START}(?:previously|formerly|originally|before)\s*,?\s+(?:it\s+|this\s+|that\s+|they\s+)?"
           rf"(?:was|were|used\s+to\s+be)\s+{_OLD}{_END}"),
    _frame(rf"\bformerly(?:\s+known\s+as|\s+called)?\s+{_OLD}{_END}", needs="formerly"),
    _frame(r"\b(?:it|they|we|he|she|this|that)\s+(?:was|were|needed|had|used|took|required|ran)\s+(?P<old>[^\s,;.!?]+"
           rf"(?:\s+[^\s,;.!?]+){{0,2}}?)\s+before(?=\s*(?:$|{_STOP}))", needs="before"),
    _frame(rf"\bnow\b[^.;!?]{{0,{_MOST}}}?[,;]\s*(?:it|that|this|they)\s+(?:was|were)\s+{_NUMBER}{_END}", needs="now"),
    _frame(rf"\b(?:up|down)\s+from\s+{_NUMBER}{_END}", needs="from"),
    # "the docs are wrong about the port" faults a source, it names no old value
    _frame(rf"(?<!\s)\s+(?:I\s+{_SAID}(?:\s+you)?\s+)?(?:was|were|is|are)\s+(?:\w+\s+)?(?:wrong|incorrect|a\s+mistake"
           r"|a\s+typo|outdated|out\s+of\s+date|stale|inaccurate)\b(?!\s+about\b)", subject=True,
           refuse=r"^(?:that|this|these|those|it|i|we|you)\b"),
    _frame(r"(?:(?<!\s)\s+(?:is|are|was|were)\s+not|(?<!\s)\s+(?:is|are|was|were)n't|'s\s+not|'re\s+not)"
           r"\s+(?:enough|valid|right|correct|accurate)\b", subject=True, refuse=r"^(?:that|this|these|those|it|i|we|you)\b"),
    _frame(rf"\b(?:I|we)\s+(?:was|were|am|are|'m|'re)\s+(?:\w+\s+)?wrong\s+about\s+{_OLD}{_END}", needs="wrong"),
    _frame(rf"\b(?:had|got)\s+{_OLD}\s+wrong\b", needs="wrong"),
    _frame(rf"\b(?:wrote|said|typed|put|gave|listed|entered)\s+{_OLD}\s+(?:by\s+mistake|in\s+error|by\s+accident"
           r"|wrongly|incorrectly)\b"),
    _frame(rf"\bI\s+{_SAID}\s+{_OLD}(?:\s+earlier)?\s*[,;:.\u2014\u2013]\s*(?:but\s+)?(?:make\s+that|scratch\s+that"
           r"|that\s+was\s+(?:wrong|a\s+mistake|incorrect|a\s+typo)|sorry|correction|actually|I\s+meant"
           r"|my\s+(?:bad|mistake))"),
    _frame(rf"\b(?:ignore|disregard|forget|never\s+mind|scratch|strike)\s+(?:what\s+I\s+{_SAID}|my\s+(?:earlier|last"
           r"|previous|old)\s+\w+|the\s+(?:earlier|previous|last|old)\s+\w+|the\s+(?:part|bit))\s+(?:about|on|regarding"
           rf"|saying|that\s+said|to)\s+{_OLD}{_END}"),
    _frame(rf"\bwhat\s+I\s+{_SAID}\s+(?:about|on|regarding)\s+{_OLD}\s+(?:no\s+longer\s+(?:applies|holds|stands)"
           r"|(?:is|was)\s+(?:wrong|outdated|incorrect|moot|void)|(?:doesn't|does\s+not)\s+apply)\b", needs="what"),
    _frame(rf"\bdisregard\s+{_OLD}{_END}", needs="disregard"),
    _frame(rf"\b(?:scratch|strike|forget|ignore|disregard)\s+that\s+(?:about|regarding)\s+{_OLD}{_END}", needs="that"),
    _frame(rf"\b(?:forget|ignore|drop|scrap)\s+(?:the\s+)?{_OLD}\s+(?:I|you|we)\s+(?:{_SAID}|wanted)\b"),
    _frame(rf"\bchanged\s+(?:my|our|his|her|their)\s+minds?\s+(?:about|on)\s+{_OLD}{_END}", needs="mind"),
    _frame(rf"\bgone\s+are\s+the\s+days\s+(?:of|when)\s+{_OLD}{_END}", needs="days"),
    # "the old 12 is gone", "our previous bucket was retired": the old value named as the old one
    _frame(rf"\b(?:the|our|my|your|their)\s+(?:old|previous|former)\s+{_OLD}\s+(?:is|are|was|were|has\s+been"
           r"|have\s+been)\s+(?:now\s+)?(?:gone|history|retired|obsolete|dead|out\s+of\s+date|no\s+more)\b",
           needs="the"),
    # "the Slack-summary thing wasn't working for me": an arrangement named as one that did not work out
    _frame(rf"\bthe\s+(?P<old>(?:[^,;.!?()\u2014\u2013]|{_INNER_DOT}){{1,{_MOST}}}?)\s+(?:thing|setup|arrangement)\s+"
           r"(?:wasn't|was\s+not|isn't|is\s+not|didn't|did\s+not|doesn't|does\s+not)\s+(?:really\s+)?work(?:ing|ed)?"
           r"(?:\s+out|\s+for\s+(?:me|us))", needs="work"),
    # "X isn't what I need anymore": the subject is what stopped being wanted
    _frame(r"(?<!\s)\s+(?:is|are)(?:n't|\s+not)\s+what\s+(?:I|we)\s+(?:need|want|use|prefer|like)\s+(?:any\s*more"
           r"|any\s+longer)\b", subject=True, refuse=r"^(?:that|this|these|those|it|i|we|you)\b", needs="what"),
    _frame(rf"\b(?:good)?bye(?:\s+bye)?,?\s+{_OLD},\s*hello\b", needs="hello"),
    _frame(rf"{_START}no\s+more\s+(?!(?:than|for|from|of|to)\b){_OLD}{_END}", needs="more"),
    # "Enough (with|of) X.": fed up with the old value
    _frame(rf"{_START}enough\s+(?:(?:with|of)\s+)?(?!(?:for|to|already|said|time|room|space|now|is|was|and|but)\b)"
           rf"{_OLD}{_END}", needs="enough"),
    # "stop assuming 12.4": a belief named as wrong
    _frame(rf"\b(?:stop|quit)\s+(?:assuming|thinking|saying|claiming|quoting|believing|expecting|telling\s+people)"
           rf"\s+(?:that\s+)?(?:it's\s+|it\s+is\s+)?{_OLD}{_END}", needs="ing"),
    # "g2-standard-48 was never approved", "11.8 never shipped": a named value that never held
    _frame(r"(?<!\s)\s+(?:was|were|has|have|had)?\s*never\s+(?:been\s+)?(?:approved|shipped|released|existed"
           r"|supported|deployed|rolled\s+out|went\s+live|the\s+case|true)\b", subject=True, needs="never",
           refuse=rf"^(?:that|this|these|those|it|i|we|you|they|he|she)\b|{_NOT_A_VALUE}"),
    # "so it's not gs://old-bucket": a named value denied (a plain word - "it's not clear" - is no value)
    _frame(rf"\b(?:it|that)(?:'s|\s+is|\s+was)\s+not\s+(?P<old>{_VALUE_TOKEN}){_END}", needs="not"),
    _frame(rf"(?<!\s)\s+(?:is|are)\s+the\s+new\s+(?P<old>{_NAME}(?:\s+{_NAME})?)", refuse=_NOT_A_NAME, needs="new"),
)

#: A speaker repairing a value in passing: "Python 3.9, or rather 3.12", "at 3, I meant 4".
REPAIRED = (
    # the old value starts where its token does: tried at each of a long token's characters, it reads in quadratic time
    _frame(r"(?<![\w.%:/@#+-])(?P<old>[\w.%:/@#+-]*\w)\s*(?:,|\u2014|\u2013|\s-)\s*(?:or\s+rather|I\s+meant|make\s+that)"
           r"\s*[,:]?(?=\s+\w)"),
)

#: A short question answered no: "Jenkins? No, we build with Actions." Read in spite of its "?".
ANSWERED = (
    _frame(r"(?:^|(?<=[.!]\s))(?P<old>(?!(?:did|do|does|is|are|was|were|can|could|should|would|will|have|has|how|what"
           r"|why|who|when|where|which|any|anything|anyone)\b)[^?.!,;]{1,40}?)\?\s+(?:no|nope|nah|oh\s+no"
           r"|not\s+any\s*more)\b(?![\s,.!\u2014\u2013-]*(?:thanks|thank|worries|problem|idea|way|kidding|rush|need|clue|yet"
           r"|not\s+(?:yet|really|now|today))\b)", needs="?"),
)

#: Words of a change without the old value ("switch to tabs", "from now on", "the policy changed").
CHANGE_WORDS = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|switch(?:ed)?\s+(?:to|from)|changed\s+my\s+mind"
    r"|change\s+of\s+plans?|from\s+now\s+on|from\s+today|(?:policy|rule|process|plan)\s+(?:has\s+)?changed"
    r"|(?:the|our|my|your|their|this|that)\s+(?:[\w-]+\s+){0,3}(?:has|have)\s+changed|(?:is|are)\s+now(?=\s+\w)"
    r"|now\s+(?:\w+\s+)?(?:want|wants|use|uses|need|needs|live|lives|run|runs|listens?|should|must|goes|go))\b"
    r"|\b(?:no\s+longer|used\s+to)\b|\bany\s*more\b(?!\s+[a-z])|\bany\s+longer\b"
    r"|\b(?:I|we)(?:\s+have|'ve)?\s+(?:moved|switched|migrated|changed)\s+(?:\w+\s+)?(?:over\s+)?to\b"
    r"|\bstandardi[sz]ed\s+on\b|\bas\s+of\s+(?:this|today|now|\d)|\bthese\s+days\b|\bnowadays\b"
    r"|\bsuits?\s+(?:me|us)\s+better\b|\b(?:is|are)\s+the\s+new\s+default\b",
    _I,
)
_LAPSE_WORDS = re.compile(r"^(?:no\s+longer|used\s+to|any\s*more|any\s+longer)$", _I)
_ACCUSTOMED = re.compile(r"\b(?:am|is|are|was|were|be|been|being|get|gets|got|getting|become|became)\s+used\s+to\b"
                         r"|(?:'m|'re|'s)\s+used\s+to\b", _I)
_HEDGE = re.compile(r"\b(?:might|(?-i:may)|could|would|maybe|perhaps|if|unless|whether|consider(?:s|ed|ing)?|thinking"
                    r"|plan(?:s|ned|ning)?\s+to|propos(?:e|es|ed|al)|suggest(?:s|ed|ion)?|hop(?:e|es|ing)|going\s+to|gonna"
                    r"|wants?\s+to|about\s+to|can|gotta|ha(?:ve|s)\s+to|ought\s+to)\b|\bto\s*$", _I)
_DENIAL = re.compile(r"\b(?:should|shall|will|need\s+to|needs\s+to|let's|let\s+us|try|trying|not|never|nobody|no\s+one"
                     r"|nothing|yet)\b|n't\b|'ll\b", _I)
_OCCASION = re.compile(r"(?<!from )(?<!of )(?<!starting )(?<!since )\b(?:today|tonight|this\s+(?:morning|afternoon"
                       r"|evening|time)|last\s+night|yesterday|for\s+once|let's|let\s+us)\b", _I)
_ONE_OFF = re.compile(r"(?:instead\s+of|rather\s+than)\s+(?!using\b)\w+ing\b", _I)
_STANDING = re.compile(r"\b(?:now|these\s+days|from\s+now\s+on|going\s+forward|henceforth|any\s*more|no\s+longer"
                       r"|from\s+today|as\s+of|default|always|every)\b", _I)
_COMPARISON = re.compile(r"\b(?:better|worse|more|less|bigger|smaller|other)\s+than\b", _I)
_INTERJECTIONS = frozenset("""
no nope nah yes yeah yea yep hey hi hello oh ah wow well ok okay sure hmm hmmm haha lol thanks thank and but so right
""".split())
#: The most characters before a contrast read to tell a greeting ("Hey John, not now"): a sentence
#: of many contrasts is read in linear time.
_GREETING = 400
#: "as I wrote yesterday" dates the earlier statement, not the change.
_REPORTED = re.compile(r"\b(?:as|like)\s+(?:I|we|you)\s+(?:said|wrote|told\s+you|mentioned)\s+\w+", _I)
_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)")
_CLAUSE_MARK = re.compile(rf"[,;!?(\u2014\u2013]|{_COLON}|\.(?!\d|(?-i:[a-z]))")  # not the dot inside r6g.large
_RELATIVE_LAST = re.compile(r"\b(?:what|whatever|which|who|that)\s*$", _I)  # "what no longer serves you" describes
_PRONOUN_LAST = re.compile(r"\b(?:i|we|you|they|he|she|it|this|that|there|who|which|what)$", _I)
_CONJUNCTION = re.compile(r"\s*(?:(?:and|but|so|because|since|now\s+that|which|that)\s+)+", _I)


@dataclass(frozen=True)
class Hit:
    """An old value a frame names, the span of the frame to drop from the new claim, and where the
    frame's own words begin (after a subject it names)."""

    old: str
    start: int
    end: int
    frame_start: int = -1


@lru_cache(maxsize=8192)
def hits(text: str) -> tuple[Hit, ...]:
    """Every old value a frame of :data:`ENDING`, :data:`EARLIER`, :data:`ANSWERED` or a lapse names
    (cached: consolidation reads the same statement many times)."""
    text = text.replace("\u2019", "'")
    lowered = text.lower()
    found = [h for h in _matches(text, lowered, ENDING) if _asserted(text, h, hedged=True)]
    found += [h for h in _matches(text, lowered, (*EARLIER, *REPAIRED)) if _asserted(text, h, hedged=False)]
    found += list(_matches(text, lowered, ANSWERED))
    found += [Hit(old, start, end) for old, start, end in lapses(text) if not _in_question(text, start)]
    return tuple(h for h in found if not any(_narrower(other, h) for other in found))


def _narrower(inner: Hit, outer: Hit) -> bool:
    """A frame inside a wider one names the same old value more closely: "the old 12 is gone" inside
    "it's 24 partitions now and the old 12 is gone" (a subject frame taking the whole clause)."""
    return (inner is not outer and outer.start <= inner.start and inner.end <= outer.end
            and (inner.start, inner.end) != (outer.start, outer.end) and inner.old in outer.old)


def stands(text: str, at: int) -> bool:
    """A contrast at ``at`` rejects a standing value: not in a question, under a hedge or on one occasion
    ("I took the bus instead of driving today", "instead of giving up, I studied": an action taken once,
    unless the sentence says the choice stands)."""
    text = text.replace("\u2019", "'")
    occasion, standing = _sentence_reads(_sentence(text, at))
    once = _ONE_OFF.match(text, at) and not standing
    return not (once or _in_question(text, at) or occasion or _HEDGE.search(_clause_before(text, at)))


@lru_cache(maxsize=1024)
def _sentence_reads(sentence: str) -> tuple[bool, bool]:
    """Whether a sentence names one occasion, and whether it says a choice stands ("as I wrote
    yesterday" aside); cached, as every contrast of a sentence asks."""
    said = _REPORTED.sub(" ", sentence)
    return bool(_OCCASION.search(said)), bool(_STANDING.search(said))


def rivals(text: str, at: int, rejected: str) -> bool:
    """"Y, not X" at ``at`` names X as Y's rival: X is a value (not "just", "sure", "worries"), the
    contrast is no comparison ("no club better than X"), and Y, the sentence's words before ``at``, is
    more than a greeting ("Yeah, no worries", "Hey John,")."""
    space = at
    while space and text[space - 1].isspace():
        space -= 1
    if space < at and space and text[space - 1] in ".!?":
        sentence = ""  # "Done. " before "- not X": a sentence ended right before the contrast
    else:
        starts = _sentence_starts(text)
        sentence = text[max(starts[bisect_right(starts, at) - 1], at - _GREETING):at]
    said = re.findall(r"[\w'-]+", sentence)
    rest = [w for w in said if w.lower() not in _INTERJECTIONS]
    greeting = len(rest) < len(said) and all(w[:1].isupper() for w in rest)
    return bool(rest) and not greeting and not NOT_A_RIVAL.match(rejected.strip()) and not _COMPARISON.search(rejected)


def worded_as_change(text: str) -> bool:
    """Words of a change that the statement asserts (not asked, hedged or denied)."""
    text = text.replace("\u2019", "'")
    for match in CHANGE_WORDS.finditer(text):
        word = match.group(0)
        if _LAPSE_WORDS.match(word):  # their own negation is the change: only a hedge or a question undoes them
            near = text[max(0, match.start() - 12):match.end()]
            before = _clause_before(text, match.start())
            if not (_in_question(text, match.start()) or _ACCUSTOMED.search(near) or _HEDGE.search(before)
                    or _RELATIVE_LAST.search(before)):
                return True
        elif stands(text, match.start()) and not _DENIAL.search(_clause_before(text, match.start())):
            return True
    return False


def _matches(text: str, lowered: str, frames: tuple[Frame, ...]) -> Iterator[Hit]:
    for frame in frames:
        if frame.needs not in lowered:
            continue
        for match in frame.pattern.finditer(text):
            subject, start = _subject(text, match.start())
            if frame.refuse is not None and (not subject or frame.refuse.search(subject)):
                continue
            if not frame.subject:
                yield Hit(match.group("old"), match.start(), match.end(), match.start())
            elif subject and not _PRONOUN_LAST.search(subject):  # "... that he's gone": "he" is the subject
                yield Hit(subject, start, match.end(), match.start())


def _subject(text: str, at: int) -> tuple[str, int]:
    """The clause's words before ``at`` (a leading conjunction aside), and where they start."""
    clause = _clause_before(text, at)
    if len(clause) > 2 * _MOST:
        return "", at  # no name is that long (and reading each of many such clauses whole was quadratic)
    lead = _CONJUNCTION.match(clause)
    subject = clause[lead.end():] if lead else clause
    return subject.strip(), at - len(subject.lstrip())


def _asserted(text: str, hit: Hit, *, hedged: bool) -> bool:
    if _in_question(text, hit.start):
        return False
    if _ACCUSTOMED.search(text[max(0, hit.start - 12):hit.end]):
        return False  # "I'm used to X" is a habit held, not one given up
    if not hedged:
        return True
    context = _clause_before(text, max(hit.start, hit.frame_start))  # not the frame's own words ("stopped going to X")
    return not (_HEDGE.search(context) or _DENIAL.search(context))


@lru_cache(maxsize=256)
def _sentence_ends(text: str) -> tuple[int, ...]:
    return tuple(end.end() for end in _SENTENCE_END.finditer(text))


@lru_cache(maxsize=256)
def _sentence_starts(text: str) -> tuple[int, ...]:
    """Where each sentence of ``text`` starts: 0 and after each "[.!?] " (a "." at the very end ends
    none, as no word follows it)."""
    return (0, *(end.end() for end in re.finditer(r"[.!?]\s+", text)))


def _sentence(text: str, at: int) -> str:
    """The sentence of ``text`` that holds position ``at`` (a dot inside "Fly.io" or "3.11" ends none).
    Sentence ends are found once per text (cached): a text with many frames reads in linear time."""
    ends = _sentence_ends(text)
    index = bisect_right(ends, at)  # the first end after ``at``
    start = ends[index - 1] if index else 0
    return text[start:ends[index]] if index < len(ends) else text[start:]


def _in_question(text: str, at: int) -> bool:
    return _sentence(text, at).rstrip().endswith("?")


@lru_cache(maxsize=256)
def _clause_marks(text: str) -> tuple[int, ...]:
    return tuple(m.end() for m in _CLAUSE_MARK.finditer(text))


def _clause_before(text: str, at: int) -> str:
    """The clause's words before ``at`` (from the last clause mark; a "." or ":" right before ``at``
    ends the clause whatever follows it)."""
    if at and text[at - 1] in ".:":
        return ""
    marks = _clause_marks(text)
    index = bisect_right(marks, at)  # marks ending at or before ``at``
    return text[marks[index - 1] if index else 0:at]
