"""Game-agnostic core: files, keys, chance, archive, adjudication, views, audit."""
