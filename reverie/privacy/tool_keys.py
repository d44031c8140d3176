"""API keys of the tools around AI agents: the web search and scraping APIs they are given (mostly
through an MCP server's ``env``), by the prefixes their providers document, and an LLM gateway's own
key. Each names the format's documentation.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, PatternDetector, Span
from reverie.privacy.values import keyish

TOOL_KEYS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    # Tavily API keys "tvly-" and 32 letters and digits, development keys "tvly-dev-" (docs.tavily.com,
    # "API credits & keys"; the tavily-mcp server reads TAVILY_API_KEY).
    ("tavily_api_key", re.compile(r"(?<![\w\-])tvly-(?:dev-|prod-)?(?P<v>[A-Za-z0-9]{32})(?![\w\-])"), ("tvly-",)),
    # Firecrawl API keys "fc-" and 32 hex digits (docs.firecrawl.dev, "Authentication"; the firecrawl-mcp
    # server reads FIRECRAWL_API_KEY).
    ("firecrawl_api_key", re.compile(r"(?<![\w\-])fc-(?P<v>[a-f0-9]{32})(?![\w\-])"), ("fc-",)),
)


# LiteLLM proxy's master key (docs.litellm.ai, "Virtual Keys": ``general_settings: master_key: sk-1234``,
# "must start with sk-"; LITELLM_MASTER_KEY), which clients send as ``Authorization: Bearer sk-…``: the
# proxy's own key, not an OpenAI one (providers' OPENAI_KEY leaves it).
LITELLM_MASTER_KEY = re.compile(
    r"(?i)\b(?:litellm_)?master_key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>sk-[A-Za-z0-9_\-]{8,})(?![\w\-])")


def tool_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The key, when its body looks generated (``tvly-`` and a word does not)."""
    return match.span() if keyish(match.group("v")) else None


def litellm_key_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if keyish(match.group("v")[3:]) else None


def tool_key_detectors() -> tuple[Detector, ...]:
    return (
        *(PatternDetector("SECRET", label, pattern, triggers, tool_key_span) for label, pattern, triggers in TOOL_KEYS),
        PatternDetector("SECRET", "bearer_token", LITELLM_MASTER_KEY, ("master_key",), litellm_key_span),
    )
