"""Background workers for Daedalus; the Celery app arrives with issue 7."""
