"""Alembic's environment for the class store: run by store.migrate() with a connection handed over
(config.attributes["connection"]); on PostgreSQL an advisory lock lets only one replica migrate at once."""

from alembic import context
from sqlalchemy import text

from store.models import Base

connection = context.config.attributes["connection"]
if connection.dialect.name == "postgresql":
    connection.execute(text("SELECT pg_advisory_xact_lock(4711)"))   # replicas starting together queue here
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
