def unsafeck(items, typed, sink):
    pass
