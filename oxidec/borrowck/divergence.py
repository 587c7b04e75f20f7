def check_divergence(program, sink):
    return {}
