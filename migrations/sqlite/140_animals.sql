-- Written by npm run migrations for animals, from their resources (schemas/).

CREATE INDEX animals_species_born_on ON animals (species, born_on);
