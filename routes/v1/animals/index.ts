import { collectionRoutes } from '../../../collections/routes.js'
import { Animals } from '../../../schemas/index.js'

export default collectionRoutes(Animals)
