"""Response shapes as data, the reference drift validator and SchemaDriftError."""
