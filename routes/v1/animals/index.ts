import { collectionRoutes } from '../../../collections/routes.ts'
import { Animals } from '../../../schemas/index.ts'

export default collectionRoutes(Animals)
