"""
Counts kept exact at write time: `add_counts` adds to rows of a counting table
(`FaceTally`, `DayCount`) by key, in one upsert statement per chunk, on SQLite (3.24 and later)
and PostgreSQL alike:

    INSERT INTO t (key..., count) VALUES (...), ...
    ON CONFLICT (key...) DO UPDATE SET count = t.count + excluded.count

Django's `bulk_create(update_conflicts=True)` can only replace the stored count with the new
one, not add to it. The key columns must carry a unique constraint (the conflict target).

On PostgreSQL a row and what is written with it can go to the server in one execute
(`inserted_first`): the Server waits on the database once for them, not once a statement,
and outside a transaction (`alone`) that execute is the whole write, one round trip. Its text
does not grow with the rows it writes (`unnest`), and equal values are bound once (`named`).

The roll log's writer writes a group commit's records together (`grouped`): their counts
summed into one upsert a table, and on PostgreSQL every statement of the group in one execute.
"""

import contextlib
import datetime
import threading
from collections import Counter

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
    number takes off). `keys` are field names; date values are adapted for the backend. In a
    `grouped` block the numbers are summed by key and written at its end.
    """
    group = _group(connection_for(model, using))
    if group is not None and group.counting:
        group.counts.setdefault((model, tuple(keys)), Counter()).update(counter)
        return
    items = sorted((key, number) for key, number in counter.items() if number)
    if not items:
        return
    connection, table, fields, columns = _table(model, keys, using)
    count = connection.ops.quote_name(model._meta.get_field("count").column)
    upsert = (f"ON CONFLICT ({', '.join(columns)}) DO UPDATE SET {count} = {table}.{count} + excluded.{count}")
    if _held(connection) is not None:
        names = [*fields, model._meta.get_field("count")]
        rows = [(*[field.get_db_prep_value(value, connection) for field, value in zip(fields, key)], number)
                for key, number in items]
        _held(connection).append(_unnest_insert(connection, table, [*columns, count], names, rows, upsert))
        return
    adapt = [(lambda value, field=field: field.get_db_prep_value(value, connection)) for field in fields]
    holders = "(" + ", ".join(["%s"] * (len(keys) + 1)) + ")"
    size = rows_per_statement(len(keys) + 1)
    for start in range(0, len(items), size):
        chunk = items[start:start + size]
        params = []
        for key, number in chunk:
            params.extend(convert(value) for convert, value in zip(adapt, key))
            params.append(number)
        execute(connection,
                 f"INSERT INTO {table} ({', '.join(columns)}, {count}) VALUES {', '.join([holders] * len(chunk))} "
                 f"{upsert}", params)


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
    if _held(connection) is not None:
        prepared = [[value if isinstance(value, NewId) else field.get_db_prep_save(value, connection)
                     for field, value in zip(fields, row)] for row in rows]
        _held(connection).append(_unnest_insert(connection, table, quoted, fields, prepared))
        return
    names = ", ".join(quoted)
    size = rows_per_statement(len(columns))
    for start in range(0, len(rows), size):
        holders, params = [], []
        for row in rows[start:start + size]:
            values = [_bound(field, value, connection, params) for field, value in zip(fields, row)]
            holders.append("(" + ", ".join(values) + ")")
        execute(connection, f"INSERT INTO {table} ({names}) VALUES {', '.join(holders)}", params)


def _unnest_insert(connection, table, quoted, fields, rows, tail=""):
    """
    (sql, params) inserting `rows` (values adapted already) in a text that does not change
    with their number: a column whose rows all hold one value is bound once, the others as
    one array each, read back by `unnest`. So an `inserted_first` execute is the same few
    statements for one receiver and for fifty, and binds few parameters (see `_send_held`).
    """
    values, arrays, params = [], [], []
    for index, field in enumerate(fields):
        column = [row[index] for row in rows]
        first = column[0]
        cast = field.db_type(connection)
        if isinstance(first, NewId):
            sql, extra = first.as_sql(connection)
            values.append(sql)
            params.extend(extra)
        elif all(_same(value, first) for value in column):
            values.append(f"%s::{cast}")
            params.append(first)
        else:
            values.append(f"u.c{index}")
            arrays.append((f"%s::{cast}[]", f"c{index}", column))
    source = ""
    if arrays:
        source = (f" FROM unnest({', '.join(holder for holder, _name, _column in arrays)})"
                  f" AS u({', '.join(name for _holder, name, _column in arrays)})")
    # The arrays' parameters come after the select list's, as their placeholders do.
    params.extend(column for _holder, _name, column in arrays)
    sql = f"INSERT INTO {table} ({', '.join(quoted)}) SELECT {', '.join(values)}{source}"
    return (f"{sql} {tail}" if tail else sql), params


def _same(value, other):
    """Bound as one parameter (`_key`: equal and of one type, True is not 1), or the same object."""
    return value is other or (_key(value) is not None and _key(value) == _key(other))


def _key(value):
    """A key under which equal parameters are bound once (`_send_held`), or None: bound apart."""
    if value is None or isinstance(value, (str, int, float, datetime.date, datetime.datetime)):
        return (type(value), value)
    if isinstance(value, list):
        keys = [_key(item) for item in value]
        return None if None in keys else ("list", tuple(keys))
    return None


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
    `add_counts`, `insert_rows` and `execute`. On PostgreSQL they are held and sent at the
    block's end in one execute (several statements, the parameters bound by the client, as
    Django's psycopg cursor does), the insert first: one round trip to the database instead of
    one a statement, the Server's thread waiting on it once. In the block `obj.pk` is a `NewId`
    (for the rows that refer to it; nothing may read it as a number there); after it, the
    id. An error in any of them (a unique code taken) is raised at the block's end, before
    anything else is written. Elsewhere (SQLite, whose statements do not leave the process)
    each is run as it comes, `obj` inserted first.
    """
    connection = connection_for(type(obj), using)
    group = _group(connection)
    if group is not None and group.holding and _held(connection) is group.held:
        # In a group (`grouped`): the insert joins the group's one execute, its id read then.
        group.held.append(_insert_sql(obj, connection))
        group.inserted.append((len(group.held) - 1, obj))
        with _standing_in(obj):
            yield obj
        return
    if connection.vendor != "postgresql" or _held(connection) is not None:
        yield insert_object(obj, using)
        return
    held = [_insert_sql(obj, connection)]
    setattr(_HELD, connection.alias, held)
    try:
        with _standing_in(obj):
            yield obj
    finally:
        delattr(_HELD, connection.alias)
    _send_held(held, [(0, obj)], connection)


@contextlib.contextmanager
def _standing_in(obj):
    """`obj.pk` is a `NewId` while its insert is held; None again if the block fails."""
    obj.pk = NewId(type(obj))
    try:
        yield
    except BaseException:
        obj.pk = None
        raise


def _send_held(held, inserted, connection):
    """
    Send the statements `held` ((sql, params), in order) in one execute, and give each of
    `inserted` ((index in `held`, the instance that statement inserts)) its id, read from its
    insert's result. If the execute fails, none of them keeps a `NewId`.
    """
    sql, params = named(";\n".join(sql for sql, _values in held), [param for _sql, values in held for param in values])
    _SENDING.on = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            position = 0
            for index, obj in inserted:
                while position < index:
                    cursor.nextset()
                    position += 1
                obj.pk = None
                _inserted(obj, cursor.fetchone()[0], connection)
    except BaseException:
        for _index, obj in inserted:  # nothing was written: no record keeps a `NewId`
            if isinstance(obj.pk, NewId):
                obj.pk = None
        raise
    finally:
        _SENDING.on = False


_GROUP = threading.local()  # {database alias: _Group}: the group `grouped` holds


class _Group:
    def __init__(self, holding):
        self.holding = holding  # PostgreSQL: statements held for one execute
        self.counting = True  # `add_counts` merged into `counts`, written at the end
        self.held = []  # (sql, params), in order
        self.inserted = []  # (index in `held`, the instance whose id that statement returns)
        self.counts = {}  # (model, key names): Counter


def _group(connection):
    return getattr(_GROUP, connection.alias, None)


@contextlib.contextmanager
def grouped(using=None):
    """
    Write several records' statements together (the roll log's writer: a group commit's jobs,
    in its transaction). Two things, both for the cost of the writer's work, which shares the
    interpreter with the game's thread and, on PostgreSQL, a round trip a statement:

    - What `add_counts` adds is summed by key and written at the block's end, one upsert a
      counting table for the whole group, where each record had its own (a room's day count
      was updated once a roll, its row rewritten as often). Nothing in a group reads a count.
    - On PostgreSQL, what `inserted_first`, `add_counts`, `insert_rows` and `execute` write is
      held and sent in one execute at the end (the statements of one execute run in order, so
      each `NewId` is its own record's); each record's id is read from its insert's result.
      Any other statement (a read through the ORM, a private record's rows) sends what is
      held first, so it sees every record before it.

    Must run inside a transaction (the group's). Nested, or on SQLite for the holding part,
    it does nothing more than it can.
    """
    connection = connections[using or "default"]
    if _group(connection) is not None:
        yield
        return
    holding = connection.vendor == "postgresql" and _held(connection) is None
    group = _Group(holding)
    setattr(_GROUP, connection.alias, group)
    if holding:
        setattr(_HELD, connection.alias, group.held)

    def held_first(execute, sql, params, many, context):
        if not getattr(_SENDING, "on", False):
            _send_group(group, connection)
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(held_first) if holding else contextlib.nullcontext():
            yield
            group.counting = False
            for (model, keys), counter in group.counts.items():
                add_counts(model, keys, counter, connection.alias)
            _send_group(group, connection)
    finally:
        delattr(_GROUP, connection.alias)
        if holding:
            delattr(_HELD, connection.alias)
        for _index, obj in group.inserted:
            if isinstance(obj.pk, NewId):  # never sent: the group failed
                obj.pk = None


def _send_group(group, connection):
    """Send what `group` holds (if anything) in one execute (`_send_held`)."""
    if not group.held:
        return
    held, inserted = list(group.held), list(group.inserted)
    group.held.clear()
    group.inserted.clear()
    _send_held(held, inserted, connection)


class NotHeld(Exception):
    """Raised by `built` before a statement would reach the database: the group cannot be
    built without sending it."""


@contextlib.contextmanager
def built(using=None):
    """
    A group's statements as `grouped` would send them on PostgreSQL, built without sending
    anything (the roll log's writer builds a group on the game's thread, to send it from
    there as one query: `rolllog.writer.prepare`). Yields the group: after the block, its `held`
    ((sql, params) in order, the summed counts last) and `inserted` ((index in `held`, the
    instance that statement inserts)), each such instance's id None until the statements
    are committed. Any statement that would reach the database meanwhile (a read, a write
    `grouped` does not hold) raises `NotHeld` before it runs; so does a connection that is
    not PostgreSQL's, or one already holding statements.
    """
    connection = connections[using or "default"]
    if connection.vendor != "postgresql" or _group(connection) is not None or _held(connection) is not None:
        raise NotHeld(connection.vendor)
    group = _Group(holding=True)
    setattr(_GROUP, connection.alias, group)
    setattr(_HELD, connection.alias, group.held)

    def refuse(execute, sql, params, many, context):
        raise NotHeld(str(sql)[:60])

    try:
        with connection.execute_wrapper(refuse):
            yield group
            group.counting = False
            for (model, keys), counter in group.counts.items():
                add_counts(model, keys, counter, connection.alias)
    finally:
        delattr(_GROUP, connection.alias)
        delattr(_HELD, connection.alias)
        for _index, obj in group.inserted:
            obj.pk = None


def given_id(obj, pk, using=None):
    """Give `obj`, inserted by statements `built` made, the id the database gave it."""
    _inserted(obj, pk, connection_for(type(obj), using))


class NeedsTransaction(Exception):
    """Raised by `alone` before a statement that is not the held execute runs: the block must
    be run again in a transaction."""


_SENDING = threading.local()  # on while `_send_held` sends: the one statement `alone` lets through


def sends_alone(model, using=None):
    """Whether `alone` may run here: PostgreSQL, its connection committing each statement (no
    transaction open), so one execute is its own transaction."""
    connection = connection_for(model, using)
    return connection.vendor == "postgresql" and connection.get_autocommit() and not connection.in_atomic_block


@contextlib.contextmanager
def alone(model, using=None):
    """
    Run an `inserted_first` block without a transaction of Django's: PostgreSQL runs the
    statements of one execute as one transaction of their own, so the Server waits on that
    one round trip, not on the BEGIN and the COMMIT around it as well. Any other write in
    the block (an Attribute Evennia creates, say) raises `NeedsTransaction` before it runs:
    nothing has been written, and the caller runs the block again in a transaction. Reads
    run as they come.
    """
    connection = connection_for(model, using)

    def guard(execute, sql, params, many, context):
        if not getattr(_SENDING, "on", False) and not str(sql).lstrip()[:6].upper().startswith("SELECT"):
            raise NeedsTransaction(str(sql)[:60])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(guard):
        yield


def named(sql, params):
    """
    `sql`'s `%s` placeholders as named ones, equal values bound once: a roll's execute binds
    a few dozen parameters, not one a value. psycopg keeps a query's parsed form for the next
    execute only up to 50 parameters (and 4,096 characters); above that it parses the text
    again each time, which cost the Server more than the database's own work for a roll.
    """
    pieces = sql.split("%s")
    if len(pieces) != len(params) + 1:
        raise ValueError(f"{len(pieces) - 1} placeholders for {len(params)} parameters")
    names, bound, parts = {}, {}, [pieces[0]]
    for value, piece in zip(params, pieces[1:]):
        key = _key(value)
        name = names.get(key) if key is not None else None
        if name is None:
            name = f"p{len(bound)}"
            bound[name] = value
            if key is not None:
                names[key] = name
        parts.append(f"%({name})s{piece}")
    return "".join(parts), bound


def _held(connection):
    return getattr(_HELD, connection.alias, None)


def execute(connection, sql, params):
    """Run one statement, or hold it for `inserted_first`'s execute when one is open (state
    kept with a roll: `commands.pending.save`)."""
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
