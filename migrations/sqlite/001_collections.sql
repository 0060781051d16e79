-- The three collections, their tombstones and an index on every column a filter or sort may name.
-- AUTOINCREMENT: a deleted id is never handed out again.

CREATE TABLE zoos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT,
  opened_on TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE animals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  species TEXT NOT NULL,
  animal_type_id INTEGER NOT NULL,
  zoo_id INTEGER REFERENCES zoos (id) ON DELETE RESTRICT,
  born_on TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE employees (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  zoo_id INTEGER REFERENCES zoos (id) ON DELETE RESTRICT,
  hired_on TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
) STRICT;

-- A deleted record leaves its id here, so that it answers 410 rather than 404.
CREATE TABLE tombstones (
  collection TEXT NOT NULL,
  id INTEGER NOT NULL,
  deleted_at TEXT NOT NULL,
  PRIMARY KEY (collection, id)
) STRICT, WITHOUT ROWID;

CREATE INDEX zoos_name ON zoos (name);
CREATE INDEX zoos_city ON zoos (city);
CREATE INDEX zoos_country ON zoos (country);
CREATE INDEX zoos_opened_on ON zoos (opened_on);
CREATE INDEX zoos_created_at ON zoos (created_at);
CREATE INDEX zoos_updated_at ON zoos (updated_at);

CREATE INDEX animals_name ON animals (name);
CREATE INDEX animals_species ON animals (species);
CREATE INDEX animals_animal_type_id ON animals (animal_type_id);
CREATE INDEX animals_zoo_id ON animals (zoo_id);
CREATE INDEX animals_born_on ON animals (born_on);
CREATE INDEX animals_created_at ON animals (created_at);
CREATE INDEX animals_updated_at ON animals (updated_at);

CREATE INDEX employees_name ON employees (name);
CREATE INDEX employees_role ON employees (role);
CREATE INDEX employees_zoo_id ON employees (zoo_id);
CREATE INDEX employees_hired_on ON employees (hired_on);
CREATE INDEX employees_created_at ON employees (created_at);
CREATE INDEX employees_updated_at ON employees (updated_at);
