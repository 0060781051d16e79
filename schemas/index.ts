// Every collection the API serves: the resources (model/resource.ts, defineResource) that the
// files of this folder export, found when the program starts, so that a new collection is its
// schema file and its route files. Listed with the collections others reference first, then by
// name: the order of the hypermedia documents and the OpenAPI tags. The single binary, which has
// no folder to read, is given the same list, made when it was built (scripts/build-binary.ts).
import { readdirSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { resourcesOf } from '../model/resource.ts'

const self = fileURLToPath(import.meta.url)
/** `.ts` where tap and the scripts run the source, `.js` in dist/. */
const extension = extname(self)
const schemaFiles = readdirSync(new URL('./', import.meta.url))
  .filter(name => extname(name) === extension && !name.endsWith(`.d${extension}`) && name !== basename(self))
  .sort()

export const RESOURCES = resourcesOf(await Promise.all(schemaFiles.map(async name => import(new URL(name, import.meta.url).href))))
