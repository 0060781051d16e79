-- The nested routes (/v1/zoos/:zoo_id/animals, .../employees) always filter on zoo_id. An index
-- (zoo_id, field) holds each zoo's records already sorted by that field, so a page of one zoo
-- sorted by any field reads only that page (store/sqlite/list.ts walks it). The index on zoo_id
-- alone serves the default sort, by id.

CREATE INDEX animals_zoo_id_name ON animals (zoo_id, name);
CREATE INDEX animals_zoo_id_species ON animals (zoo_id, species);
CREATE INDEX animals_zoo_id_animal_type_id ON animals (zoo_id, animal_type_id);
CREATE INDEX animals_zoo_id_born_on ON animals (zoo_id, born_on);
CREATE INDEX animals_zoo_id_created_at ON animals (zoo_id, created_at);
CREATE INDEX animals_zoo_id_updated_at ON animals (zoo_id, updated_at);

CREATE INDEX employees_zoo_id_name ON employees (zoo_id, name);
CREATE INDEX employees_zoo_id_role ON employees (zoo_id, role);
CREATE INDEX employees_zoo_id_email ON employees (zoo_id, email);
CREATE INDEX employees_zoo_id_hired_on ON employees (zoo_id, hired_on);
CREATE INDEX employees_zoo_id_created_at ON employees (zoo_id, created_at);
CREATE INDEX employees_zoo_id_updated_at ON employees (zoo_id, updated_at);
