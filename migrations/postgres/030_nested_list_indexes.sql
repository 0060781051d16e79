-- The nested routes (/v1/zoos/:zoo_id/animals, .../employees) always filter on zoo_id: an index
-- (zoo_id, field, id) holds each zoo's records already in the order of a sort by that field.
CREATE INDEX animals_zoo_id_name ON animals (zoo_id, name NULLS FIRST, id);
CREATE INDEX animals_zoo_id_species ON animals (zoo_id, species NULLS FIRST, id);
CREATE INDEX animals_zoo_id_animal_type_id ON animals (zoo_id, animal_type_id NULLS FIRST, id);
CREATE INDEX animals_zoo_id_born_on ON animals (zoo_id, born_on NULLS FIRST, id);
CREATE INDEX animals_zoo_id_created_at ON animals (zoo_id, created_at NULLS FIRST, id);
CREATE INDEX animals_zoo_id_updated_at ON animals (zoo_id, updated_at NULLS FIRST, id);
CREATE INDEX animals_zoo_id_id ON animals (zoo_id, id);

CREATE INDEX employees_zoo_id_name ON employees (zoo_id, name NULLS FIRST, id);
CREATE INDEX employees_zoo_id_role ON employees (zoo_id, role NULLS FIRST, id);
CREATE INDEX employees_zoo_id_email ON employees (zoo_id, lower(email) NULLS FIRST, id);
CREATE INDEX employees_zoo_id_hired_on ON employees (zoo_id, hired_on NULLS FIRST, id);
CREATE INDEX employees_zoo_id_created_at ON employees (zoo_id, created_at NULLS FIRST, id);
CREATE INDEX employees_zoo_id_updated_at ON employees (zoo_id, updated_at NULLS FIRST, id);
CREATE INDEX employees_zoo_id_id ON employees (zoo_id, id);
