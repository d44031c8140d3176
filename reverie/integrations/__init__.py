"""Where agents already live: the MCP tools (``mcp_server``, served over stdio by ``reverie mcp`` and
over streamable HTTP at ``/mcp``) and LangGraph's store (``langgraph``, the optional extra
``reverie[langgraph]``). Both are clients of the v1 HTTP API: they add no auth path of their own."""
