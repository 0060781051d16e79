// The bench's records, deterministic: the same --rows give the same records on every run. Each
// collection has its own seeded PRNG, so the SQLite load (main thread) and the db.json writer (a
// worker thread, run alongside: this file is also its entry point) produce identical records.
import { closeSync, openSync, writeSync } from 'node:fs'
import { isMainThread, workerData } from 'node:worker_threads'

export const CITIES = [
  'Berlin', 'Hamburg', 'Munich', 'Cologne', 'Frankfurt', 'Stuttgart', 'Leipzig', 'Dresden', 'Hanover', 'Nuremberg',
  'Bremen', 'Essen', 'Dortmund', 'Duisburg', 'Bonn', 'Münster', 'Karlsruhe', 'Mannheim', 'Augsburg', 'Kiel',
  'Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nice', 'Nantes', 'Strasbourg', 'Montpellier', 'Bordeaux', 'Lille',
  'Rennes', 'Reims', 'Toulon', 'Grenoble', 'Dijon', 'Angers', 'Nîmes', 'Brest', 'Tours', 'Amiens',
  'Vienna', 'Graz', 'Linz', 'Salzburg', 'Innsbruck', 'Klagenfurt', 'Villach', 'Wels', 'Dornbirn', 'Steyr',
  'Rome', 'Milan', 'Naples', 'Turin', 'Palermo', 'Genoa', 'Bologna', 'Florence', 'Bari', 'Catania',
  'Venice', 'Verona', 'Messina', 'Padua', 'Trieste', 'Parma', 'Brescia', 'Prato', 'Taranto', 'Modena',
  'Zurich', 'Geneva', 'Basel', 'Bern', 'Lausanne', 'Amsterdam', 'Rotterdam', 'Utrecht', 'Antwerp', 'Ghent',
  'Brussels', 'Prague', 'Brno', 'Warsaw', 'Krakow', 'Wroclaw', 'Poznan', 'Gdansk', 'Budapest', 'Ljubljana',
  'Zagreb', 'Copenhagen', 'Aarhus', 'Stockholm', 'Oslo', 'Helsinki', 'Madrid', 'Barcelona', 'Lisbon', 'Porto'
]
const COUNTRIES = ['DE', 'FR', 'AT', 'IT', null]
export const SPECIES = [
  'Lion', 'Tiger', 'Leopard', 'Cheetah', 'Jaguar', 'Snow leopard', 'Lynx', 'Brown bear', 'Polar bear', 'Giant panda',
  'Red panda', 'Wolf', 'Red fox', 'Meerkat', 'Otter', 'Seal', 'Sea lion', 'Walrus', 'Elephant', 'Rhinoceros',
  'Hippopotamus', 'Giraffe', 'Zebra', 'Okapi', 'Camel', 'Llama', 'Alpaca', 'Bison', 'Yak', 'Moose',
  'Reindeer', 'Kangaroo', 'Koala', 'Wombat', 'Chimpanzee', 'Gorilla', 'Orangutan', 'Gibbon', 'Lemur', 'Capybara',
  'Penguin', 'Flamingo', 'Ostrich', 'Emu', 'Pelican', 'Parrot', 'Owl', 'Eagle', 'Crocodile', 'Tortoise'
]
export const ROLES = ['keeper', 'vet', 'curator', 'guide', 'cashier', 'cleaner', 'gardener', 'manager', 'cook', 'technician']
const ANIMAL_NAMES = [
  'Bao', 'Knut', 'Fiona', 'Kiki', 'Momo', 'Nala', 'Simba', 'Luna', 'Max', 'Bella',
  'Coco', 'Rocky', 'Toby', 'Zara', 'Oscar', 'Milo', 'Ruby', 'Leo', 'Lola', 'Otto',
  'Pia', 'Yuki', 'Tara', 'Bruno', 'Ella', 'Finn', 'Ida', 'Jabari', 'Kaya', 'Mia'
]
const FIRST_NAMES = [
  'Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hugo',
  'Ines', 'Jonas', 'Lea', 'Marc', 'Nina', 'Paul', 'Rosa', 'Tom'
]
const LAST_NAMES = [
  'Bauer', 'Dubois', 'Esposito', 'Fischer', 'Gruber', 'Huber', 'Klein',
  'Martin', 'Moreau', 'Müller', 'Ricci', 'Rossi', 'Schmid', 'Wagner'
]

const DAY = 86_400_000
const CREATED_FROM = Date.UTC(2020, 0, 1)
const CREATED_SPAN = 5 * 365 * DAY

/** The zoos that hold animals: ids 1..zoosWithAnimals(rows), about 1000 animals each. */
export const zoosWithAnimals = rows => Math.max(1, Math.floor(rows / 1000))

/** Random helpers over a small seeded PRNG (mulberry32), uniform in [0, 1). */
function generator (seed) {
  let a = seed >>> 0
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = n => Math.floor(random() * n) // 0..n-1
  return {
    random,
    int,
    pick: list => list[int(list.length)],
    /** A day from `fromYear` to `toYear`, or null in `nullShare` of the draws. */
    date: (fromYear, toYear, nullShare) => {
      if (random() < nullShare) return null
      const from = Date.UTC(fromYear, 0, 1)
      return new Date(from + int((Date.UTC(toYear + 1, 0, 1) - from) / DAY) * DAY).toISOString().slice(0, 10)
    },
    /** created_at and updated_at, the second never before the first. */
    stamps: () => {
      const created = CREATED_FROM + int(CREATED_SPAN)
      const updated = random() < 0.5 ? created : created + int(CREATED_FROM + CREATED_SPAN - created)
      return [new Date(created).toISOString(), new Date(updated).toISOString()]
    }
  }
}

/** Zoos 1..rows, named "zoo 000123" with the numbers shuffled, so that name order is not id order. */
export function * zoos (rows) {
  const g = generator(1)
  const names = new Uint32Array(rows)
  for (let i = 0; i < rows; i++) names[i] = i
  for (let i = rows - 1; i > 0; i--) {
    const j = g.int(i + 1)
    const t = names[i]
    names[i] = names[j]
    names[j] = t
  }
  const width = Math.max(6, String(rows - 1).length)
  for (let id = 1; id <= rows; id++) {
    const [created, updated] = g.stamps()
    yield {
      id,
      name: `zoo ${String(names[id - 1]).padStart(width, '0')}`,
      city: g.pick(CITIES),
      country: g.pick(COUNTRIES),
      opened_on: g.date(1850, 2024, 0.1),
      created_at: created,
      updated_at: updated
    }
  }
}

/** Animals 1..rows, all in the first zoosWithAnimals(rows) zoos. */
export function * animals (rows) {
  const g = generator(2)
  const zoos = zoosWithAnimals(rows)
  for (let id = 1; id <= rows; id++) {
    const [created, updated] = g.stamps()
    yield {
      id,
      name: `${g.pick(ANIMAL_NAMES)} ${id}`,
      species: g.pick(SPECIES),
      animal_type_id: 1 + g.int(20),
      zoo_id: 1 + g.int(zoos),
      born_on: g.date(1990, 2024, 0.1),
      created_at: created,
      updated_at: updated
    }
  }
}

/** Employees 1..rows with unique emails, in a random zoo or none. */
export function * employees (rows) {
  const g = generator(3)
  for (let id = 1; id <= rows; id++) {
    const [created, updated] = g.stamps()
    const first = g.pick(FIRST_NAMES)
    yield {
      id,
      name: `${first} ${g.pick(LAST_NAMES)}`,
      role: g.pick(ROLES),
      email: `${first.toLowerCase()}${id}@zoo.test`,
      zoo_id: g.random() < 0.1 ? null : 1 + g.int(rows),
      hired_on: g.date(1980, 2024, 0.1),
      created_at: created,
      updated_at: updated
    }
  }
}

/**
 * Keepers 1..rows (the bench's collection with access rules, bench/access/), in the same zoos as
 * the animals and about as many in each, whatever the rows: a bound token's list is as long at
 * ten thousand rows as at a million.
 */
export function * keepers (rows) {
  const g = generator(4)
  const zoos = zoosWithAnimals(rows)
  for (let id = 1; id <= rows; id++) {
    const [created, updated] = g.stamps()
    yield {
      id,
      name: `${g.pick(FIRST_NAMES)} ${g.pick(LAST_NAMES)} ${id}`,
      zoo_id: 1 + g.int(zoos),
      phone: g.random() < 0.2 ? null : `+49 30 ${String(g.int(1e7)).padStart(7, '0')}`,
      created_at: created,
      updated_at: updated
    }
  }
}

/** The shipped collections, in json-server's db.json too. */
export const COLLECTIONS = { zoos, animals, employees }

/**
 * json-server's database: `{"zoos": [...], "animals": [...], "employees": [...]}`, one record per
 * line (the json-server launcher relies on that for files too large for one string).
 */
export function writeJson (file, rows) {
  const fd = openSync(file, 'w')
  let buffer = ''
  Object.entries(COLLECTIONS).forEach(([name, records], i) => {
    buffer += `${i === 0 ? '{' : '\n],'}${JSON.stringify(name)}:[`
    let separator = '\n'
    for (const record of records(rows)) {
      buffer += `${separator}${JSON.stringify(record)}`
      separator = ',\n'
      if (buffer.length > 1 << 20) {
        writeSync(fd, buffer)
        buffer = ''
      }
    }
  })
  writeSync(fd, `${buffer}\n]}\n`)
  closeSync(fd)
}

if (!isMainThread && workerData?.jsonFile !== undefined) writeJson(workerData.jsonFile, workerData.rows)
