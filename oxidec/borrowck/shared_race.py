def check_shared_races(program, items, summaries, sink):
    pass
