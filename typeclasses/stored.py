"""
Replacing a stored value cheaply: `replace_value(obj, key, value, category)`.

A roll changes state that is kept as an Attribute (the +willpower window, a challenge, a
sheet's Hunger or Willpower), and Evennia's `attributes.add` writes an existing Attribute's
value twice (its `value` setter saves, then the handler saves again), each save in a
savepoint of its own: six statements. In a busy scene that is a third of what a roll asks of
the database. `replace_value` writes an existing Attribute in one UPDATE and keeps Evennia's
cached Attribute and its OOB monitors as a save would; a new Attribute (or one holding a
plain string) still goes through `attributes.add`.
"""

from django.db import connections, router
from evennia.scripts.monitorhandler import MONITOR_HANDLER
from evennia.utils.dbserialize import to_pickle


def replace_value(obj, key, value, category=None, execute=None):
    """
    Set the Attribute `key` (of `category`) of `obj` to `value` (any value Evennia stores).
    `execute(connection, sql, params)`, if given, runs the UPDATE in its place: the roll log
    holds it there, to send with the roll's own statements (`rolllog.api.kept_with_roll`).
    """
    attribute = obj.attributes.get(key, category=category, return_obj=True)
    if attribute is None or isinstance(attribute, list) or attribute.db_strvalue is not None:
        obj.attributes.add(key, value, category=category)
        return
    # What the Attribute's `value` setter keeps (the packed value); the cached object is the
    # one every later read of this Attribute unpacks.
    attribute.db_value = to_pickle(value)
    model = type(attribute)
    connection = connections[router.db_for_write(model)]
    field = model._meta.get_field("db_value")
    quote = connection.ops.quote_name
    # One statement, without the query compiler's work.
    sql = f"UPDATE {quote(model._meta.db_table)} SET {quote(field.column)} = %s WHERE {quote(model._meta.pk.column)} = %s"
    params = [field.get_db_prep_save(attribute.db_value, connection), attribute.id]
    if execute is not None:
        execute(connection, sql, params)
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    MONITOR_HANDLER.at_update(attribute, "db_value")
