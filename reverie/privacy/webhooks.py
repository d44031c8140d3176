"""Incoming webhook URLs of chat and automation services that neither gitleaks' rule set nor
:mod:`reverie.privacy.providers` (Slack's, Discord's, Teams') knows: whoever has the URL can post into
the channel or start the automation, so the whole URL is the secret. Each names the format's
documentation.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, PatternDetector, Span
from reverie.privacy.values import keyish

# Zapier's "Catch Hook" trigger (help.zapier.com, "Trigger Zaps from webhooks"):
# ``https://hooks.zapier.com/hooks/catch/<account id>/<hook id>/``, the standard form ``/hooks/standard/`` alike.
ZAPIER_WEBHOOK = re.compile(r"\bhttps?://hooks\.zapier\.com/hooks/(?:catch|standard)/\d{3,12}/[A-Za-z0-9]{5,40}/?")
# Mattermost's incoming webhooks (developers.mattermost.com, "Incoming webhooks"): ``https://<your
# server>/hooks/<id>``, the id one of Mattermost's 26-character generated ids (lower-case letters and digits).
MATTERMOST_WEBHOOK = re.compile(r"\bhttps?://[\w.\-]+(?::\d{1,5})?/hooks/(?P<id>[a-z0-9]{26})(?![\w\-/])")
# Google Chat's incoming webhooks (developers.google.com/workspace/chat, "Build a Google Chat app as a
# webhook"): ``https://chat.googleapis.com/v1/spaces/<space>/messages?key=<key>&token=<token>``, the
# token URL-encoded (its final "=" as ``%3D``); the URL with its whole query.
GOOGLE_CHAT_WEBHOOK = re.compile(
    r"\bhttps://chat\.googleapis\.com/v1/spaces/[\w\-]+/messages\?(?P<query>[\w\-.~%]+=[\w\-.~%]*(?:&[\w\-.~%]+=[\w\-.~%]*)*)")


def mattermost_span(text: str, match: re.Match[str]) -> Span | None:
    """A generated id has digits among its letters (``/hooks/deployment-events`` does not)."""
    return match.span() if keyish(match.group("id")) else None


def google_chat_span(text: str, match: re.Match[str]) -> Span | None:
    """The URL with a token in its query (the API's own URL for a message, with a key alone, posts nothing)."""
    return match.span() if re.search(r"(?:^|&)token=[^&]", match.group("query")) else None


def webhook_detectors() -> tuple[Detector, ...]:
    return (
        PatternDetector("SECRET", "zapier_webhook", ZAPIER_WEBHOOK, ("hooks.zapier.com",)),
        PatternDetector("SECRET", "mattermost_webhook", MATTERMOST_WEBHOOK, ("/hooks/",), mattermost_span),
        PatternDetector("SECRET", "google_chat_webhook", GOOGLE_CHAT_WEBHOOK, ("chat.googleapis.com",), google_chat_span),
    )
