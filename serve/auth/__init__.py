"""Who may do what (DESIGN §5): API keys and the key ring, principals and visibility, per-key quotas,
and the ASGI gate that checks key, quota and body size before anything is parsed."""
