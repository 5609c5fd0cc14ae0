"""The import-graph tests' one search for circles (rules/ and commands/ alike)."""


def circles_in(edges):
    """Every circle in `edges` ({module: names it imports}) as the path that closes it
    (`[a, b, a]`), found depth first in name order; [] when there is none."""
    state, path, circles = {}, [], []

    def visit(name):
        state[name] = "open"
        path.append(name)
        for other in sorted(edges.get(name, ())):
            if state.get(other) == "open":
                circles.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other)
        path.pop()
        state[name] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name)
    return circles
