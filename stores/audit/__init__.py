"""The durable audit store, one module per concern: schema, migrations, engine, bounds, rows, the store, its
group-commit writer and the trail reader."""
