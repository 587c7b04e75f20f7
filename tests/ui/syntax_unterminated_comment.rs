#[kernel]
pub fn k() {
    /* this comment never ends
}
