// The teacher's screens of accommodations (the class page's section); the taking and practice
// pages import ./student/* directly, so that none of this is in their first load.
export { ClassAccommodationsSection } from './ClassAccommodationsSection';
