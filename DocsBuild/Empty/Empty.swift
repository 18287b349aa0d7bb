// Nothing: the package exists to run the DocC plugin on GRDBCipher.
