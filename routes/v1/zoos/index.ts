import { collectionRoutes } from '../../../lib/collection-routes.js'
import { Zoos } from '../../../schemas/index.js'

export default collectionRoutes(Zoos)
