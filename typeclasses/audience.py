"""
Who a roll reaches, once each.
"""


def distinct(objects):
    """
    `objects` once each, in order, without None, told apart by database id: `in` on a list of
    typeclassed objects compares each pair through their `__eq__`, which in a full room (a
    roll's audience, its receivers on the record) is quadratic and costs more than the roll.
    """
    seen, out = set(), []
    for obj in objects:
        if obj is None:
            continue
        mark = getattr(obj, "id", None) or ("object", id(obj))
        if mark not in seen:
            seen.add(mark)
            out.append(obj)
    return out
