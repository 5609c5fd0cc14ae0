"""
Counts kept exact at write time: `add_counts` adds to rows of a counting table
(`FaceTally`, `DayCount`) by key, in one upsert statement per chunk, on SQLite (3.24 and later)
and PostgreSQL alike:

    INSERT INTO t (key..., count) VALUES (...), ...
    ON CONFLICT (key...) DO UPDATE SET count = t.count + excluded.count

Django's `bulk_create(update_conflicts=True)` can only replace the stored count with the new
one, not add to it. The key columns must carry a unique constraint (the conflict target).
"""

from django.db import connections, router

MAX_PARAMETERS = 999  # bound parameters per statement: the lowest limit of any SQLite


def rows_per_statement(columns):
    """As many rows as one statement binds on every backend (a full room in one statement)."""
    return max(1, MAX_PARAMETERS // columns)


def connection_for(model, using=None):
    return connections[using or router.db_for_write(model)]


def _table(model, names, using):
    """(connection, quoted table, the fields named, their quoted columns) for raw SQL."""
    connection = connection_for(model, using)
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    return connection, quote(model._meta.db_table), fields, [quote(field.column) for field in fields]


def add_counts(model, keys, counter, using=None):
    """
    Add {(key values in the order of `keys`): number} to `model`'s `count` column (a negative
    number takes off). `keys` are field names; date values are adapted for the backend.
    """
    items = sorted((key, number) for key, number in counter.items() if number)
    if not items:
        return
    connection, table, fields, columns = _table(model, keys, using)
    count = connection.ops.quote_name(model._meta.get_field("count").column)
    adapt = [(lambda value, field=field: field.get_db_prep_value(value, connection)) for field in fields]
    holders = "(" + ", ".join(["%s"] * (len(keys) + 1)) + ")"
    size = rows_per_statement(len(keys) + 1)
    with connection.cursor() as cursor:
        for start in range(0, len(items), size):
            chunk = items[start:start + size]
            params = []
            for key, number in chunk:
                params.extend(convert(value) for convert, value in zip(adapt, key))
                params.append(number)
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}, {count}) VALUES {', '.join([holders] * len(chunk))} "
                f"ON CONFLICT ({', '.join(columns)}) DO UPDATE SET {count} = {table}.{count} + excluded.{count}",
                params)


def insert_rows(model, columns, rows, using=None):
    """
    Insert plain rows (tuples of values in the order of the field names `columns`, adapted
    for the backend by each field) into `model`'s table, as many a statement as it binds:
    without the model instance per row and the query compiler `bulk_create` goes through,
    which cost a roll more than the roll itself. No signal is sent and nothing is returned.
    """
    if not rows:
        return
    connection, table, fields, quoted = _table(model, columns, using)
    names = ", ".join(quoted)
    holders = "(" + ", ".join(["%s"] * len(columns)) + ")"
    size = rows_per_statement(len(columns))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            chunk = rows[start:start + size]
            cursor.execute(f"INSERT INTO {table} ({names}) VALUES {', '.join([holders] * len(chunk))}",
                           [field.get_db_prep_save(value, connection) for row in chunk
                            for field, value in zip(fields, row)])


def insert_object(obj, using=None):
    """
    Insert a new model instance in one statement and give it its id: what `bulk_create([obj])`
    does (each field's `pre_save` and adaptation, `INSERT ... RETURNING`, on SQLite 3.35 and
    later and PostgreSQL alike), without the query compiler, which was half of a roll's
    insert. No signal is sent.
    """
    model = type(obj)
    connection = connection_for(model, using)
    meta = model._meta
    fields = [field for field in meta.local_concrete_fields if field is not meta.pk or obj.pk is not None]
    quote = connection.ops.quote_name
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
                       f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}", values)
        obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


def empty(model, using=None):
    """
    Delete every row of a counting table in one statement: a queryset's delete() would load
    them all first, since Evennia listens to every model's deletions.
    """
    connection = connection_for(model, using)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
