// A misspelled device API type: the hint comes from the registry's types.
#[device]
fn bump(c: DeviceAtomicU23) -> u32 {
    c.fetch_add(1, AtomicOrdering::Relaxed)
}
