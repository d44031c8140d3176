"""What a note is embedded as: a printed reading with the module it was read for (DESIGN §4.6).

A tool's output kept as a module's verified fact (``$ west list zephyr`` and its table, a boot
banner, a lockfile's line) seldom names the module it was run for: the session was about that module,
so nobody needed to. The questions about it do name it ("which release does vac-drive build on?"),
and a plain turn that merely names the module ("pulling up the vac-drive schematic") then lies closer
to the question than the reading that answers it. A turn's contextual key carries its day, speaker
and the turn before it (:mod:`reverie.context_keys`); a printed module note's text for the embedding
carries its module's name::

    vac-drive: $ west list zephyr
    zephyr  zephyr  v3.7.0  https://github.com/zephyrproject-rtos/zephyr

Only printed readings get it: a rule or lesson said in words already names what it is about, and the
patterns mining looks for across modules must not be pulled apart by their modules' names. The
statement stays what was read; only the vector sees the context. The writers that embed a note's
statement (consolidation, edits, authored notes, imports, purges, privacy rescans, ``reverie reembed``)
embed this text. A vector taken over from another view keeps the text it was made from until
``reverie reembed``: a note moved to its module by ``reverie store migrate``, a claim resolution retypes
as an open question or moves into a module, a pattern whose vector is a member's (retrieval still finds
each by its statement).
"""

from __future__ import annotations

from reverie import tool_output


def module_of(scope: str) -> str | None:
    """The module a scope is for (``module:project/name`` -> ``name``), else None."""
    return scope.rsplit("/", 1)[-1] if scope.startswith("module:") and "/" in scope else None


def printed(statement: str, note_type: str) -> bool:
    """A tool's reading: a verified fact, or text that is a command's output."""
    return note_type == "verified_fact" or tool_output.is_tool_output(statement)


def embedding_text(statement: str, scope: str, note_type: str) -> str:
    """The text a note of ``scope`` and ``note_type`` is embedded as."""
    module = module_of(scope)
    return f"{module}: {statement}" if module and printed(statement, note_type) else statement
