/// The plans of records compiled from the schema: the INSERT and UPDATE
/// statements of record types, and their lookups by key. They depend on
/// primary keys, so they live in the schema cache's compiled plans and go
/// with the schema.
///
/// Short lists, searched linearly: comparing keys costs less than hashing
/// one. Used by one connection, in its accesses.
final class RecordPlans: SchemaCompiledPlans {
    // Unchecked: used by one connection, one access at a time, and never
    // reentrantly; the dynamic exclusivity check of a class's property
    // cost each insert and lookup by key about 100 instructions (callgrind).

    /// The INSERT and UPDATE statements of records, by record type and shape.
    @exclusivity(unchecked) var persistencePlans: [PersistencePlan] = []

    /// The compiled `fetchOne(_:key:)` of record types.
    @exclusivity(unchecked) var keyLookupPlans: [KeyLookupPlan] = []

    /// The persistence plan of this key, if there is one. A method of the
    /// plans, searching their buffer: the array and each plan are not
    /// retained as they are compared, only the plan found (callgrind: two
    /// retains and releases fewer per record written).
    @inline(__always)
    func persistencePlan(for key: PersistencePlan.Key) -> PersistencePlan? {
        persistencePlans.withUnsafeBufferPointer { plans in
            for index in plans.indices where plans[index].key == key { return plans[index] }
            return nil
        }
    }

    /// Stores a plan, replacing the one of the same key.
    func setPersistencePlan(_ plan: PersistencePlan) {
        if let index = persistencePlans.firstIndex(where: { $0.key == plan.key }) {
            persistencePlans[index] = plan
        } else {
            persistencePlans.append(plan)
        }
    }

    /// The lookup plan of a record type, if there is one.
    @inline(__always)
    func keyLookupPlan(for recordType: ObjectIdentifier) -> KeyLookupPlan? {
        for plan in keyLookupPlans where plan.recordType == recordType { return plan }
        return nil
    }

    /// Stores a plan, replacing the one of the same record type.
    func setKeyLookupPlan(_ plan: KeyLookupPlan) {
        if let index = keyLookupPlans.firstIndex(where: { $0.recordType == plan.recordType }) {
            keyLookupPlans[index] = plan
        } else {
            keyLookupPlans.append(plan)
        }
    }
}

// Invariant of both casts below: RecordPlans is the only class that adopts
// SchemaCompiledPlans, so the slot holds one or nothing (checked in debug
// builds by unsafeDowncast).
extension SchemaCache {
    /// The plans of records, if any were stored since the schema was last
    /// forgotten: the read path of lookups, which changes nothing.
    var existingRecordPlans: RecordPlans? {
        @inline(__always) get {
            guard let compiledPlans else { return nil }
            return unsafeDowncast(compiledPlans, to: RecordPlans.self)
        }
    }

    /// The plans of records, made empty on first use after the schema was
    /// forgotten: the path that stores a plan.
    var recordPlans: RecordPlans {
        @inline(__always) mutating get {
            if let compiledPlans { return unsafeDowncast(compiledPlans, to: RecordPlans.self) }
            let plans = RecordPlans()
            compiledPlans = plans
            return plans
        }
    }
}
