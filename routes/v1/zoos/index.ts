import { collectionRoutes } from '../../../collections/routes.js'
import { Zoos } from '../../../schemas/index.js'

export default collectionRoutes(Zoos)
