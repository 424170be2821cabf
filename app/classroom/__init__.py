"""Class mode: a class's shared state (store.py, schema.py: SQLAlchemy Core on SQLite or PostgreSQL),
the join link's address (address.py), and the teacher's and students' views (view.py)."""
