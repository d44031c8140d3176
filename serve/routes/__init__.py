"""The v1 routes, one module per part of DESIGN §6: capture and control, notes, governance,
retrieval, mining and graph, health and metrics. Each module exposes an ``APIRouter`` named ``router``.
"""
