// The PostgreSQL-only layer's tests (jest.config.js) use that layer's database, whatever the stack's setup set.
process.env.DATABASE_URL = process.env.LAYER_DATABASE_URL;
