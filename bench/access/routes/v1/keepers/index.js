// /v1/keepers and /v1/keepers/{id}: the bench's collection with access rules (bench/access/schemas/keeper.js).
import { collectionRoutes } from '../../../collections/routes.js'
import { Keepers } from '../../../schemas/keeper.js'

export default collectionRoutes(Keepers)
