"""Generic UI parts shared by every page: settings forms (controls), URL and session state, export/import, live jobs and their pacing, chart builders, live (in-place) charts, limits."""
