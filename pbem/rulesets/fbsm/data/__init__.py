"""Packaged FBSM data: tables.yaml (rule tables and counter values) and map.yaml (the sample map)."""
