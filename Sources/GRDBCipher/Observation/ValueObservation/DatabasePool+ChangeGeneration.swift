extension DatabasePool {
    /// How many accesses of the writer changed the database so far: value
    /// observations skip a second fetch on the writer when it did not move.
    var writerChangeGeneration: UInt64 { writer.changeGeneration.value }
}
