"""Every error Reverie raises on purpose derives from :class:`ReverieError`.

The tree (HTTP status in brackets, mapped in one place in ``serve/``)::

    ReverieError
    ├── ConfigError                 settings or a file they name are wrong          [500 at start-up]
    │   └── RuleTranslationError    a vendored secret rule's Go regex has no Python form (skipped)
    ├── ValidationError             a record or request field is invalid            [422]
    │   └── PayloadTooLargeError    a body or text is over its size limit           [413]
    ├── NotFoundError               unknown id, or an id the caller may not see     [404]
    ├── ConflictError               the state does not allow this now               [409]
    │   ├── EventConflictError      same (agent_id, event_id), other content
    │   ├── BatchConflictError      rollback refused: a later batch changed the notes
    │   └── RunInProgressError      a consolidation or mining run is already running
    ├── AuthError                   no key or an unknown key                        [401]
    │   └── ForbiddenError          the principal's role or scope does not allow it [403]
    ├── QuotaError                  a key exceeded its quota, or load is shed        [429]
    ├── UnavailableError            a part of the service is down or restarting     [503]
    ├── StoreError                  the store cannot be opened or written
    │   ├── EmbedderMismatchError   the store was built with another embedder
    │   └── CommitError             a write did not commit after every retry
    └── ExtractionError             an extractor (e.g. the LLM) gave a malformed answer

Messages say what happened, why, and how to fix it. They never echo submitted text:
only field names, ids, sizes and counts.
"""

from __future__ import annotations


class ReverieError(Exception):
    """Base class of every error Reverie raises on purpose."""

    code = "reverie_error"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class ConfigError(ReverieError):
    code = "config_error"


class RuleTranslationError(ConfigError):
    code = "rule_translation_error"


class ValidationError(ReverieError):
    code = "validation_error"


class PayloadTooLargeError(ValidationError):
    code = "payload_too_large"


class NotFoundError(ReverieError):
    code = "not_found"


class ConflictError(ReverieError):
    code = "conflict"


class EventConflictError(ConflictError):
    code = "event_conflict"


class BatchConflictError(ConflictError):
    code = "batch_conflict"


class RunInProgressError(ConflictError):
    code = "run_in_progress"


class AuthError(ReverieError):
    code = "unauthorized"


class ForbiddenError(AuthError):
    code = "forbidden"


class QuotaError(ReverieError):
    code = "quota_exceeded"

    def __init__(self, message: str, *, retry_after: float = 1.0, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.retry_after = retry_after


class UnavailableError(ReverieError):
    """A part of the service (an actor, the store) is down or restarting; retrying later helps."""

    code = "unavailable"

    def __init__(self, message: str, *, retry_after: float = 1.0, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.retry_after = retry_after


class StoreError(ReverieError):
    code = "store_error"


class EmbedderMismatchError(StoreError):
    code = "embedder_mismatch"


class CommitError(StoreError):
    code = "commit_failed"


class ExtractionError(ReverieError):
    code = "extraction_error"
