"""The use-case table (api/usecases/table.py) and one module of rows per area.

`rows.ROWS` is every row the adapters serve; this package's `__init__` stays empty so the
request models may import the markers without a cycle.
"""
