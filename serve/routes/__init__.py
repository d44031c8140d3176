"""The v1 routes, one module per part of DESIGN §6: capture and control, notes, governance,
retrieval, mining, graph and map, the review queue, health and metrics, and the explorer page
(``ui``). Each module exposes an ``APIRouter`` named ``router``.
"""
