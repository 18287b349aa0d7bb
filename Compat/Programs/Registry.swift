// Every program of the harness, in the order the runner runs them.
let allPrograms: [Program] = coreBasics + valuePrograms + dateEdgePrograms + errorPrograms + transactionPrograms + handWrittenRecordPrograms + codableRecordPrograms + queryPrograms + migrationPrograms + schemaPrograms + dumpPrograms + miscRecordPrograms + observationPrograms + jsonPrograms + requestProtocolPrograms
