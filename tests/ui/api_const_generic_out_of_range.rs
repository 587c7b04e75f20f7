// `prof_trigger::<N>` signals one of the 16 performance-monitor events.
#[kernel]
pub fn k() {
    debug::prof_trigger::<15>();
    debug::prof_trigger::<16>();
}
