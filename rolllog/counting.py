"""
Counts kept exact at write time: `add_counts` adds to rows of a counting table
(`FaceTally`, `DayCount`) by key, in one upsert statement per chunk, on SQLite (3.24 and later)
and PostgreSQL alike:

    INSERT INTO t (key..., count) VALUES (...), ...
    ON CONFLICT (key...) DO UPDATE SET count = t.count + excluded.count

Django's `bulk_create(update_conflicts=True)` can only replace the stored count with the new
one, not add to it. The key columns must carry a unique constraint (the conflict target).

On PostgreSQL a row and what is written with it can go to the server in one execute
(`inserted_first`): the Server waits on the database once for them, not once a statement.
"""

import contextlib
import threading

from django.db import connections, router

# {database alias: [(sql, params), ...]}: the statements `inserted_first` is holding.
_HELD = threading.local()

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
    for start in range(0, len(items), size):
        chunk = items[start:start + size]
        params = []
        for key, number in chunk:
            params.extend(convert(value) for convert, value in zip(adapt, key))
            params.append(number)
        _execute(connection,
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
    size = rows_per_statement(len(columns))
    for start in range(0, len(rows), size):
        holders, params = [], []
        for row in rows[start:start + size]:
            values = [_bound(field, value, connection, params) for field, value in zip(fields, row)]
            holders.append("(" + ", ".join(values) + ")")
        _execute(connection, f"INSERT INTO {table} ({names}) VALUES {', '.join(holders)}", params)


def _bound(field, value, connection, params):
    """The SQL for one value of a row (its parameters added to `params`): a placeholder, or
    the expression a `NewId` stands for."""
    if isinstance(value, NewId):
        sql, extra = value.as_sql(connection)
        params.extend(extra)
        return sql
    params.append(field.get_db_prep_save(value, connection))
    return "%s"


def insert_object(obj, using=None):
    """
    Insert a new model instance in one statement and give it its id: what `bulk_create([obj])`
    does (each field's `pre_save` and adaptation, `INSERT ... RETURNING`, on SQLite 3.35 and
    later and PostgreSQL alike), without the query compiler, which was half of a roll's
    insert. No signal is sent.
    """
    connection = connection_for(type(obj), using)
    with connection.cursor() as cursor:
        cursor.execute(*_insert_sql(obj, connection))
        return _inserted(obj, cursor.fetchone()[0], connection)


def _insert_sql(obj, connection):
    meta = obj._meta
    fields = [field for field in meta.local_concrete_fields if field is not meta.pk or obj.pk is not None]
    quote = connection.ops.quote_name
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
    return (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}", values)


def _inserted(obj, pk, connection):
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


class NewId:
    """
    The id of the row `inserted_first` holds, in a row written after it in the same execute:
    PostgreSQL's `currval` of its table's sequence, which that insert has just set in this
    session (the statements of one execute run in order), whatever other sessions insert.
    """

    def __init__(self, model):
        self.model = model

    def as_sql(self, connection):
        meta = self.model._meta
        return "currval(pg_get_serial_sequence(%s, %s))", [connection.ops.quote_name(meta.db_table), meta.pk.column]


@contextlib.contextmanager
def inserted_first(obj, using=None):
    """
    Insert the new instance `obj` (as `insert_object`) and what the block writes with
    `add_counts` and `insert_rows`. On PostgreSQL they are held and sent at the block's end in
    one execute (several statements, the parameters bound by the client, as Django's
    psycopg cursor does), the insert first: one round trip to the database instead of one a
    statement, the Server's thread waiting on it once. In the block `obj.pk` is a `NewId`
    (for the rows that refer to it; nothing may read it as a number there); after it, the
    id. An error in any of them (a unique code taken) is raised at the block's end, before
    anything else is written. Elsewhere (SQLite, whose statements do not leave the process)
    each is run as it comes, `obj` inserted first.
    """
    connection = connection_for(type(obj), using)
    if connection.vendor != "postgresql" or _held(connection) is not None:
        yield insert_object(obj, using)
        return
    held = [_insert_sql(obj, connection)]
    setattr(_HELD, connection.alias, held)
    obj.pk = NewId(type(obj))
    try:
        yield obj
    except BaseException:
        obj.pk = None
        raise
    finally:
        delattr(_HELD, connection.alias)
    _send_held(obj, held, connection)


def _send_held(obj, held, connection):
    params = [param for _sql, values in held for param in values]
    obj.pk = None
    with connection.cursor() as cursor:
        cursor.execute(";\n".join(sql for sql, _values in held), params)
        _inserted(obj, cursor.fetchone()[0], connection)


def _held(connection):
    return getattr(_HELD, connection.alias, None)


def _execute(connection, sql, params):
    """Run one statement, or hold it for `inserted_first`'s execute when one is open."""
    held = _held(connection)
    if held is not None:
        held.append((sql, params))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def empty(model, using=None):
    """
    Delete every row of a counting table in one statement: a queryset's delete() would load
    them all first, since Evennia listens to every model's deletions.
    """
    connection = connection_for(model, using)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
